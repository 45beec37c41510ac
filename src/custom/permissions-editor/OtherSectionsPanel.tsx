import type { PermissionTarget } from '../../api/permissions';
import { OTHER_SECTIONS, type OtherSection } from './editor';
import { ACTION_LABELS, OTHER_SECTION_TITLES, PERMISSION_LABELS as L } from './messages';

type Sections = Pick<PermissionTarget, OtherSection>;

/** What a section covers, in words: its rules, patterns or targets. */
function coverageOf(name: OtherSection, sections: Sections): string[] {
  if (name === 'destination')
    return (sections.destination?.destinationRules ?? []).map((rule) =>
      [rule.siteName, rule.cityName, rule.countryCodes.join(', ')].join(' / '),
    );
  if (name === 'pipelineSource') {
    const section = sections.pipelineSource;
    const excluded = (section?.['exclude-patterns'] ?? []).map((pattern) => `not ${pattern}`);
    return [...(section?.['include-patterns'] ?? []), ...excluded];
  }
  return sections.xraySource?.targets ?? [];
}

/**
 * The sections of a target whose service Depot lacks (destinations, pipeline sources, Xray
 * sources; spec 01 §6): shown read-only with what the REST API granted, never dropped on save
 * (the form keeps them in `otherSections`). A target without them shows nothing here.
 */
export function OtherSectionsPanel({ sections }: { sections: Sections }) {
  const present = OTHER_SECTIONS.filter((name) => sections[name]);
  if (present.length === 0) return null;
  return (
    <div className="permission-resources">
      {present.map((name) => {
        const title = OTHER_SECTION_TITLES[name];
        const actions = sections[name]!.actions;
        const granted = (['users', 'groups'] as const).flatMap((kind) =>
          Object.entries(actions[kind] ?? {}).map(([who, list]) => ({ kind, who, list })),
        );
        const coverage = coverageOf(name, sections);
        return (
          <section key={name} className="permission-resource" aria-label={title}>
            <h3>{title}</h3>
            <p className="hint">{L.readOnlySection(title)}</p>
            <p>
              {L.covers}: {coverage.length > 0 ? coverage.join('; ') : L.everything}
            </p>
            {granted.length === 0 ? (
              <p className="hint">{L.noGrants}</p>
            ) : (
              <dl className="permission-granted">
                {granted.map(({ kind, who, list }) => (
                  <div key={`${kind}:${who}`}>
                    <dt>
                      {who} ({kind === 'users' ? L.users : L.groups})
                    </dt>
                    <dd>
                      {list.map((action) => ACTION_LABELS[name][action] ?? action).join(', ')}
                    </dd>
                  </div>
                ))}
              </dl>
            )}
          </section>
        );
      })}
    </div>
  );
}
