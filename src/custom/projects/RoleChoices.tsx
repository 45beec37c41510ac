import type { ProjectRole } from '../../api/projects';
import { PROJECT_LABELS as L } from './messages';

/** The project's roles as checkboxes: a member holds any number of them. */
export function RoleChoices({
  roles,
  chosen,
  onChange,
  idPrefix,
}: {
  roles: ProjectRole[];
  chosen: string[];
  onChange: (roles: string[]) => void;
  idPrefix: string;
}) {
  const toggle = (name: string, on: boolean) =>
    onChange(on ? [...chosen, name] : chosen.filter((role) => role !== name));
  return (
    <fieldset className="role-choices">
      <legend>{L.memberRoles}</legend>
      {roles.map((role) => (
        <label key={role.name} className="checkbox" htmlFor={`${idPrefix}-${role.name}`}>
          <input
            id={`${idPrefix}-${role.name}`}
            type="checkbox"
            checked={chosen.includes(role.name)}
            onChange={(e) => toggle(role.name, e.target.checked)}
          />
          <span title={role.description}>{role.name}</span>
        </label>
      ))}
    </fieldset>
  );
}
