import { roleLabels, ROLES, mayGrant, type Role } from '../../shared/roles.ts';
import { inputClass } from '../components/formStyles.ts';

/** A role picker offering the roles `actor` may give (and `value`, shown even when it may not). */
export function RoleSelect(props: {
  actor: Role;
  value: Role;
  onChange(role: Role): void;
  label: string;
  disabled?: boolean;
  id?: string;
}) {
  const offered = ROLES.filter((role) => role === props.value || mayGrant(props.actor, role));
  return (
    <select
      id={props.id}
      aria-label={props.id ? undefined : props.label}
      className={`${inputClass} mt-0 w-auto py-1`}
      value={props.value}
      disabled={props.disabled}
      onChange={(event) => props.onChange(event.target.value as Role)}
    >
      {offered.map((role) => (
        <option key={role} value={role}>
          {roleLabels[role]}
        </option>
      ))}
    </select>
  );
}
