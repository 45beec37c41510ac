import { useState, type FormEvent } from 'react';
import { useUnit } from 'effector-react';
import { ConfirmRemoval } from './ConfirmRemoval';
import { TextField } from '../../design/components/TextField';
import { CheckboxField } from '../../design/components/CheckboxField';
import { $roles, $settingsError, roleCreated, roleRemoved } from './model';
import { ProjectSettingsPage } from './ProjectSettingsPage';
import { PROJECT_LABELS as L, ROLE_ACTION_LABELS } from './messages';
import { ENVIRONMENTS } from '../../api/projects';

const toggled = (list: string[], item: string, on: boolean) =>
  on ? [...list, item] : list.filter((entry) => entry !== item);

/** Project Settings > Roles: the predefined roles and the project's own, with their actions. */
export default function ProjectRolesPage() {
  return (
    <ProjectSettingsPage title={L.roles}>
      <Roles />
    </ProjectSettingsPage>
  );
}

function Roles() {
  const [roles, remove] = useUnit([$roles, roleRemoved]);
  const [removing, setRemoving] = useState<string | null>(null);
  return (
    <>
      <table className="data-table">
        <thead>
          <tr>
            <th scope="col">{L.roleName}</th>
            <th scope="col">{L.roleType}</th>
            <th scope="col">{L.environments}</th>
            <th scope="col">{L.actions}</th>
            <th scope="col">
              <span className="visually-hidden">{L.remove}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {roles.map((role) => (
            <tr key={role.name}>
              <td title={role.description}>{role.name}</td>
              <td>{role.type === 'PREDEFINED' ? 'Predefined' : 'Custom'}</td>
              <td>{role.environments.join(', ')}</td>
              <td>
                {role.actions.map((action) => ROLE_ACTION_LABELS[action] ?? action).join(', ')}
              </td>
              <td>
                {role.type === 'CUSTOM' && (
                  <button
                    type="button"
                    className="btn btn-link"
                    aria-label={`${L.delete} ${role.name}`}
                    onClick={() => setRemoving(role.name)}
                  >
                    {L.delete}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <RoleForm />
      <ConfirmRemoval
        subject={removing}
        title={L.delete}
        text={L.confirmRemoveRole}
        confirmLabel={L.delete}
        onRemove={remove}
        onClose={() => setRemoving(null)}
      />
    </>
  );
}

function RoleForm() {
  const [error, create] = useUnit([$settingsError, roleCreated]);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [actions, setActions] = useState<string[]>([]);
  // A role acts only on repositories in its environments; both unless narrowed.
  const [environments, setEnvironments] = useState<string[]>([...ENVIRONMENTS]);
  const [problem, setProblem] = useState<string | null>(null);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return setProblem(L.required);
    create({
      name: name.trim(),
      description,
      type: 'CUSTOM',
      environments,
      actions: actions as never,
    });
    setName('');
    setDescription('');
    setActions([]);
    setEnvironments([...ENVIRONMENTS]);
    setProblem(null);
  };
  return (
    <form noValidate onSubmit={onSubmit} className="project-form" aria-label={L.addRole}>
      <h2>{L.addRole}</h2>
      <TextField
        label={L.roleName}
        required
        value={name}
        onChange={(e) => setName(e.target.value)}
      />
      <TextField
        label={L.description}
        value={description}
        onChange={(e) => setDescription(e.target.value)}
      />
      <fieldset>
        <legend>{L.environments}</legend>
        {ENVIRONMENTS.map((environment) => (
          <CheckboxField
            key={environment}
            label={environment}
            checked={environments.includes(environment)}
            onChange={(e) => setEnvironments(toggled(environments, environment, e.target.checked))}
          />
        ))}
      </fieldset>
      <fieldset>
        <legend>{L.actions}</legend>
        {Object.entries(ROLE_ACTION_LABELS).map(([action, label]) => (
          <CheckboxField
            key={action}
            label={label}
            checked={actions.includes(action)}
            onChange={(e) => setActions(toggled(actions, action, e.target.checked))}
          />
        ))}
      </fieldset>
      {(problem ?? error) && (
        <p role="alert" className="error-text">
          {problem ?? error}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary">
          {L.addRole}
        </button>
      </div>
    </form>
  );
}
