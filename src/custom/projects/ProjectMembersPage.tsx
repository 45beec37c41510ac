import { useState, type FormEvent } from 'react';
import { useUnit } from 'effector-react';
import type { MemberKind, ProjectMember } from '../../api/projects';
import { ConfirmRemoval } from './ConfirmRemoval';
import { TabBar } from '../../design/components/TabBar';
import { TextField } from '../../design/components/TextField';
import { $members, $roles, $settingsError, memberRemoved, memberSaved } from './model';
import { ProjectSettingsPage } from './ProjectSettingsPage';
import { RoleChoices } from './RoleChoices';
import { PROJECT_LABELS as L } from './messages';

const KINDS: Array<{ kind: MemberKind; label: string }> = [
  { kind: 'users', label: L.users },
  { kind: 'groups', label: L.groups },
];
const labelOfKind = (kind: MemberKind) => KINDS.find((tab) => tab.kind === kind)?.label ?? kind;

/** Project Settings > Members: users and groups of the project, each with roles. */
export default function ProjectMembersPage() {
  return (
    <ProjectSettingsPage title={L.members}>
      <Members />
    </ProjectSettingsPage>
  );
}

function Members() {
  const [members, remove] = useUnit([$members, memberRemoved]);
  const [kind, setKind] = useState<MemberKind>('users');
  const [editing, setEditing] = useState<ProjectMember | null>(null);
  const [removing, setRemoving] = useState<ProjectMember | null>(null);
  const rows = members[kind];
  return (
    <>
      <TabBar
        label={L.members}
        names={KINDS.map((tab) => tab.kind)}
        selected={kind}
        labelOf={(name) => `${labelOfKind(name)} (${members[name].length})`}
        onSelect={(name) => {
          setKind(name);
          setEditing(null);
        }}
      >
        <MemberForm kind={kind} editing={editing} onDone={() => setEditing(null)} />
        {rows.length === 0 ? (
          <p role="status">{L.noMembers}</p>
        ) : (
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">{L.member}</th>
                <th scope="col">{L.memberRoles}</th>
                <th scope="col">
                  <span className="visually-hidden">{L.actions}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((member) => (
                <tr key={member.name}>
                  <td>{member.name}</td>
                  <td>{member.roles.join(', ')}</td>
                  <td className="row-actions">
                    <button
                      type="button"
                      className="btn btn-link"
                      onClick={() => setEditing(member)}
                    >
                      {L.memberRoles}
                    </button>
                    <button
                      type="button"
                      className="btn btn-link"
                      aria-label={`${L.remove} ${member.name}`}
                      onClick={() => setRemoving(member)}
                    >
                      {L.remove}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </TabBar>
      <ConfirmRemoval
        subject={removing}
        title={L.remove}
        text={(member) => L.confirmRemoveMember(member.name)}
        confirmLabel={L.remove}
        onRemove={(member) => remove({ kind, name: member.name })}
        onClose={() => setRemoving(null)}
      />
    </>
  );
}

/** Adds a member, or changes the roles of the one being edited. */
function MemberForm({
  kind,
  editing,
  onDone,
}: {
  kind: MemberKind;
  editing: ProjectMember | null;
  onDone: () => void;
}) {
  const [roles, error, save] = useUnit([$roles, $settingsError, memberSaved]);
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [shownFor, setShownFor] = useState<ProjectMember | null>(null);
  // Editing another member starts from that member's roles.
  if (editing !== shownFor) {
    setShownFor(editing);
    setName(editing?.name ?? '');
    setChosen(editing?.roles ?? []);
    setProblem(null);
  }
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return setProblem(L.required);
    if (chosen.length === 0) return setProblem(L.rolesRequired);
    save({ kind, name: name.trim(), roles: chosen });
    setName('');
    setChosen([]);
    setProblem(null);
    onDone();
  };
  return (
    <form
      noValidate
      onSubmit={onSubmit}
      className="project-form member-form"
      aria-label={L.addMember}
    >
      <TextField
        label={kind === 'users' ? L.users : L.groups}
        required
        value={name}
        readOnly={editing !== null}
        onChange={(e) => setName(e.target.value)}
      />
      <RoleChoices roles={roles} chosen={chosen} onChange={setChosen} idPrefix={`member-${kind}`} />
      {(problem ?? error) && (
        <p role="alert" className="error-text">
          {problem ?? error}
        </p>
      )}
      <div className="form-actions">
        {editing && (
          <button type="button" className="btn" onClick={onDone}>
            {L.cancel}
          </button>
        )}
        <button type="submit" className="btn btn-primary">
          {editing ? L.save : L.addMember}
        </button>
      </div>
    </form>
  );
}
