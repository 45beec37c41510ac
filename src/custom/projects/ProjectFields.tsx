import type { Project } from '../../api/projects';
import { TextField } from '../../design/components/TextField';
import { CheckboxField } from '../../design/components/CheckboxField';
import { PROJECT_LABELS as L, projectKeyError, projectNameError } from './messages';

/** The create and overview forms' values, as typed. */
export interface ProjectDraft {
  name: string;
  key: string;
  description: string;
  /** Gigabytes as typed; empty means no quota. */
  quotaGb: string;
  manageMembers: boolean;
  manageResources: boolean;
}

const GB = 1024 ** 3;

export function toDraft(project: Project): ProjectDraft {
  const quota = project.storage_quota_bytes;
  return {
    name: project.display_name,
    key: project.project_key,
    description: project.description,
    // Six significant digits: a quota far below a gigabyte must not read as 0.
    quotaGb: quota && quota > 0 ? String(+(quota / GB).toPrecision(6)) : '',
    manageMembers: project.admin_privileges.manage_members,
    manageResources: project.admin_privileges.manage_resources,
  };
}

/** The body of a create (with the key) or an update (without: a key never changes). */
export function toProject(draft: ProjectDraft, withKey: boolean): Partial<Project> {
  return {
    ...(withKey ? { project_key: draft.key } : {}),
    display_name: draft.name.trim(),
    description: draft.description,
    storage_quota_bytes: draft.quotaGb.trim() === '' ? -1 : Math.round(Number(draft.quotaGb) * GB),
    admin_privileges: {
      manage_members: draft.manageMembers,
      manage_resources: draft.manageResources,
      index_resources: true,
    },
  };
}

/** Field errors with the spec's messages (spec 03 §5 project key rules). */
export function fieldErrors(draft: ProjectDraft, withKey: boolean): Record<string, string> {
  const errors: Record<string, string> = {};
  const name = projectNameError(draft.name);
  if (name) errors.name = name;
  const key = withKey ? projectKeyError(draft.key) : null;
  if (key) errors.key = key;
  const quota = draft.quotaGb.trim();
  if (quota !== '' && !(Number(quota) > 0)) errors.quotaGb = L.quotaHelp;
  return errors;
}

export function ProjectFields({
  draft,
  errors,
  onChange,
  withKey,
  readOnly,
  disabled,
}: {
  draft: ProjectDraft;
  errors: Record<string, string>;
  onChange: (next: Partial<ProjectDraft>) => void;
  withKey: boolean;
  readOnly?: boolean;
  /** Locked for a moment (the project being read or saved). */
  disabled?: boolean;
}) {
  return (
    <>
      <TextField
        label={L.name}
        required
        maxLength={32}
        value={draft.name}
        readOnly={readOnly}
        disabled={disabled}
        error={errors.name}
        onChange={(e) => onChange({ name: e.target.value })}
      />
      <TextField
        label={L.key}
        required
        maxLength={32}
        value={draft.key}
        readOnly={!withKey || readOnly}
        disabled={disabled}
        error={errors.key}
        onChange={(e) => onChange({ key: e.target.value })}
      />
      <TextField
        label={L.description}
        value={draft.description}
        readOnly={readOnly}
        disabled={disabled}
        onChange={(e) => onChange({ description: e.target.value })}
      />
      <TextField
        label={L.quota}
        inputMode="decimal"
        placeholder={L.quotaHelp}
        value={draft.quotaGb}
        readOnly={readOnly}
        disabled={disabled}
        error={errors.quotaGb}
        onChange={(e) => onChange({ quotaGb: e.target.value })}
      />
      <CheckboxField
        label={L.manageMembers}
        checked={draft.manageMembers}
        disabled={readOnly || disabled}
        onChange={(e) => onChange({ manageMembers: e.target.checked })}
      />
      <CheckboxField
        label={L.manageResources}
        checked={draft.manageResources}
        disabled={readOnly || disabled}
        onChange={(e) => onChange({ manageResources: e.target.checked })}
      />
    </>
  );
}
