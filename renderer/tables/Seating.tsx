// The register's seats and courses (docs/tables.md, "Seats and courses"): where the next items go,
// a course's heading on the ticket with its Hold / Fire controls, and moving a line to another
// seat or course. Chips and buttons work by touch and keyboard alike.
import type { Course } from '../../bridge/tables/contract';
import type { Placement } from './seating';

/** The seat and the course the next items are rung up for: chips 1..guests and "Table" (shared); the courses and "No course". */
export function SeatingBar({ seats, courses, placement, onChange }: { seats: readonly number[]; courses: readonly Course[]; placement: Placement; onChange: (placement: Placement) => void }) {
  return (
    <div className="seating" data-testid="seating">
      <div className="seating-row" role="group" aria-label="Seat for the next items">
        <span className="seating-label" aria-hidden="true">
          Seat
        </span>
        <button type="button" className="chip" aria-pressed={placement.seat === null} onClick={() => onChange({ ...placement, seat: null })}>
          Table
        </button>
        {seats.map((seat) => (
          <button key={seat} type="button" className="chip" aria-pressed={placement.seat === seat} aria-label={`Seat ${seat}`} onClick={() => onChange({ ...placement, seat })}>
            {seat}
          </button>
        ))}
      </div>
      <div className="seating-row" role="group" aria-label="Course for the next items">
        <span className="seating-label" aria-hidden="true">
          Course
        </span>
        <button type="button" className="chip" aria-pressed={placement.course === null} onClick={() => onChange({ ...placement, course: null })}>
          None
        </button>
        {courses.map((course) => (
          <button key={course.id} type="button" className="chip" aria-pressed={placement.course === course.id} onClick={() => onChange({ ...placement, course: course.id })}>
            {course.name}
          </button>
        ))}
      </div>
    </div>
  );
}

/**
 * A course's heading on the ticket: its name, HELD or FIRED, and what can be done. A ticket not sent
 * yet holds a course (or lets it go again) until it is sent; a sent order's course is held only
 * before its lines go to the kitchen, and fired once.
 */
export function CourseHead({
  course,
  state,
  sent,
  canHold,
  busy,
  onHold,
  onFire,
}: {
  /** null: the lines in no course. */
  course: Course | null;
  state: 'held' | 'fired' | null;
  /** The ticket is an order already sent (editing): Fire is offered for a held course. */
  sent: boolean;
  /** The course can be held now: on a sent order, only while none of its lines went to the kitchen. */
  canHold: boolean;
  busy: boolean;
  onHold: () => void;
  onFire: () => void;
}) {
  if (course === null) return <span className="course-head muted">No course</span>;
  return (
    <span className="course-head" data-testid={`course-${course.name}`}>
      <span className="course-name">{course.name}</span>
      {state === 'held' ? <span className="badge badge-held">HELD</span> : null}
      {state === 'fired' ? <span className="badge badge-fired">FIRED</span> : null}
      {canHold && state !== 'fired' && !(sent && state === 'held') ? (
        <button type="button" className="ghost course-action" aria-pressed={state === 'held'} disabled={busy} onClick={onHold} aria-label={`Hold ${course.name}`}>
          Hold
        </button>
      ) : null}
      {sent && state === 'held' ? (
        <button type="button" className="secondary course-action" disabled={busy} onClick={onFire} aria-label={`Fire ${course.name}`}>
          Fire
        </button>
      ) : null}
    </span>
  );
}

/** The selected line's seat and course, to move it. */
export function LinePlacement({ name, seats, courses, placement, onChange }: { name: string; seats: readonly number[]; courses: readonly Course[]; placement: Placement; onChange: (placement: Placement) => void }) {
  // A line already at a seat past the guests (the party shrank) keeps it on offer.
  const offered = placement.seat !== null && !seats.includes(placement.seat) ? [...seats, placement.seat] : seats;
  return (
    <div className="line-placement" role="group" aria-label={`Where ${name} is served`}>
      <span className="line-placement-name">{name}</span>
      <label>
        Seat
        <select aria-label={`Seat of ${name}`} value={placement.seat ?? ''} onChange={(event) => onChange({ ...placement, seat: event.target.value === '' ? null : Number(event.target.value) })}>
          <option value="">Table</option>
          {offered.map((seat) => (
            <option key={seat} value={seat}>
              {seat}
            </option>
          ))}
        </select>
      </label>
      <label>
        Course
        <select aria-label={`Course of ${name}`} value={placement.course ?? ''} onChange={(event) => onChange({ ...placement, course: event.target.value === '' ? null : event.target.value })}>
          <option value="">None</option>
          {courses.map((course) => (
            <option key={course.id} value={course.id}>
              {course.name}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}
