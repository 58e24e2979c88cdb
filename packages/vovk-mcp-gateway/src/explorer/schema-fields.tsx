// Form controls of a JSON Schema form: nested objects as fieldsets, inputs by type, inline validation messages.
import { type Field, type FormErrors, type FormValues, optionsOf } from '../browser/explorer/schema-form.js';
import styles from './explorer.module.css';

interface FieldsProps {
  fields: Field[];
  values: FormValues;
  /** Messages to show, by field key (empty until the user first tries to run). */
  errors: FormErrors;
  /** Prefix of the controls' element ids, unique on the page. */
  idPrefix: string;
  /** What labels a control: the property's name (a tool's arguments, the default) or its `title` (a question). */
  labelBy?: 'name' | 'title';
  onChange(key: string, value: string | boolean): void;
}

const labelOf = (field: Field, labelBy: FieldsProps['labelBy']) =>
  labelBy === 'title' ? (field.schema.title ?? field.name) : field.name;

export const controlId = (idPrefix: string, key: string) => `${idPrefix}-${key}`;

const typeHint = (field: Field) => (field.kind === 'json' ? 'JSON' : field.kind === 'enum' ? 'one of' : field.kind);

function Control({ field, value, id, describedBy, invalid, onChange }: {
  field: Field;
  value: string | boolean | undefined;
  id: string;
  describedBy: string | undefined;
  invalid: boolean;
  onChange(value: string | boolean): void;
}) {
  const common = { id, 'aria-describedby': describedBy, 'aria-invalid': invalid, 'aria-required': field.required };
  const text = typeof value === 'string' ? value : '';
  switch (field.kind) {
    case 'boolean':
      return <input {...common} type="checkbox" checked={value === true} onChange={(event) => onChange(event.target.checked)} />;
    case 'enum':
      return (
        <select {...common} className={styles.input} value={text} onChange={(event) => onChange(event.target.value)}>
          <option value="">{field.required ? 'Choose…' : '(not set)'}</option>
          {optionsOf(field.schema).map((option, index) => (
            <option key={index} value={String(index)}>
              {option.label}
            </option>
          ))}
        </select>
      );
    case 'json':
      return (
        <textarea {...common} className={styles.input} rows={3} value={text} onChange={(event) => onChange(event.target.value)} />
      );
    default:
      return (
        <input
          {...common}
          className={styles.input}
          type="text"
          inputMode={field.kind === 'integer' ? 'numeric' : field.kind === 'number' ? 'decimal' : undefined}
          autoComplete="off"
          value={text}
          onChange={(event) => onChange(event.target.value)}
        />
      );
  }
}

function RequiredHint({ field }: { field: Field }) {
  return field.required ? <span className={styles.requiredHint}>required</span> : null;
}

function LeafField({ field, values, errors, idPrefix, labelBy, onChange }: FieldsProps & { field: Field }) {
  const id = controlId(idPrefix, field.key);
  const error = errors[field.key];
  const described = [field.schema.description && `${id}-description`, error && `${id}-error`].filter(Boolean).join(' ');
  return (
    <div className={field.kind === 'boolean' ? styles.checkboxField : styles.field}>
      <label htmlFor={id} className={styles.label}>
        {labelOf(field, labelBy)}
      </label>
      <span className={styles.typeHint}>
        {typeHint(field)} <RequiredHint field={field} />
      </span>
      <Control
        field={field}
        value={values[field.key]}
        id={id}
        describedBy={described || undefined}
        invalid={Boolean(error)}
        onChange={(value) => onChange(field.key, value)}
      />
      {field.schema.description && (
        <p id={`${id}-description`} className={styles.fieldDescription}>
          {field.schema.description}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className={styles.fieldError} data-testid="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

export function SchemaFields(props: FieldsProps) {
  return props.fields.map((field) =>
    field.kind === 'object' ? (
      <fieldset key={field.key} className={styles.fieldset}>
        <legend className={styles.legend}>
          {labelOf(field, props.labelBy)} <RequiredHint field={field} />
        </legend>
        {field.schema.description && <p className={styles.fieldDescription}>{field.schema.description}</p>}
        {field.children.length ? <SchemaFields {...props} fields={field.children} /> : <p className={styles.muted}>No fields.</p>}
      </fieldset>
    ) : (
      <LeafField key={field.key} {...props} field={field} />
    ),
  );
}
