/**
 * A refusal shown right under the field it is about: the field points at it (aria-describedby)
 * and is marked invalid, so a screen reader reads both together and nobody hunts for the reason.
 */
export function FieldError({ id, message }: { id: string; message: string | null }) {
  if (!message) return null;
  return (
    <p id={id} className="error-note field-error" role="alert">
      {message}
    </p>
  );
}

/** The attributes that tie an input to its FieldError while there is one. */
export function describedBy(id: string, message: string | null): { 'aria-invalid'?: true; 'aria-describedby'?: string } {
  return message ? { 'aria-invalid': true, 'aria-describedby': id } : {};
}
