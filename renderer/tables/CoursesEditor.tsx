// The store's courses, edited by a manager in the floor editor and in Settings (docs/tables.md,
// "Seats and courses"): rename, reorder, remove, add, then Save. The list is saved whole; a refusal is said next to the
// name it is about (or under the list) and nothing is saved.
import { useId, useState } from 'react';
import { COURSE_LIMITS, type Course } from '../../bridge/tables/contract';
import { ErrorNote } from '../components/Dialog';
import { describedBy, FieldError } from '../components/FieldError';
import { BridgeCallError } from '../lib/bridge-client';
import { describeError, useBridge, useQuery } from '../lib/hooks';

type Row = { key: string; id?: string; name: string };

let rowCounter = 0;
const rowOf = (course: Course): Row => ({ key: course.id, id: course.id, name: course.name });

/** `card`: a card of its own, styled as its neighbours (Settings), rather than the last part of a panel (the floor editor). */
export function CoursesEditor({ card = false }: { card?: boolean }) {
  const { data: courses } = useQuery('tables.courses', {}, ['courses.changed']);
  return courses ? <CourseList key={courses.map((c) => `${c.id}:${c.name}`).join('|')} courses={courses} card={card} /> : null;
}

function CourseList({ courses, card }: { courses: readonly Course[]; card: boolean }) {
  const client = useBridge();
  const id = useId();
  const [rows, setRows] = useState<Row[]>(() => courses.map(rowOf));
  const [issues, setIssues] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const changed = rows.length !== courses.length || rows.some((row, i) => row.id !== courses[i]?.id || row.name !== courses[i]?.name);

  const edit = (next: Row[]) => {
    setRows(next);
    setIssues({});
    setError(null);
  };
  const move = (index: number, by: -1 | 1) => {
    const next = [...rows];
    const [row] = next.splice(index, 1);
    next.splice(index + by, 0, row!);
    edit(next);
  };
  const save = async () => {
    setSaving(true);
    try {
      // The list comes back through 'courses.changed'; this form starts again from it.
      await client.call('tables.saveCourses', { courses: rows.map((row) => ({ ...(row.id ? { id: row.id } : {}), name: row.name })) });
    } catch (caught) {
      const byField = caught instanceof BridgeCallError ? Object.fromEntries((caught.issues ?? []).map((i) => [i.path, i.message])) : {};
      setIssues(byField);
      // A refusal not about one name (a course in use, too many) is said under the list.
      const named = rows.some((_row, i) => byField[`courses.${i}.name`] !== undefined);
      setError(named ? null : (byField.courses ?? describeError(caught)));
    } finally {
      setSaving(false);
    }
  };

  return (
    <section className={card ? 'card' : 'courses-editor'} aria-label="Courses">
      <h2>Courses</h2>
      <p className="muted">In serving order. A course an open check uses cannot be removed.</p>
      <ol className="courses-list">
        {rows.map((row, index) => {
          const issue = issues[`courses.${index}.name`] ?? null;
          return (
            <li key={row.key} className="course-row">
              <input
                aria-label={`Course ${index + 1}`}
                value={row.name}
                maxLength={COURSE_LIMITS.name + 10}
                onChange={(event) => edit(rows.map((r) => (r.key === row.key ? { ...r, name: event.target.value } : r)))}
                {...describedBy(`${id}-${row.key}`, issue)}
              />
              <button type="button" className="ghost" aria-label={`Move ${row.name} up`} disabled={index === 0} onClick={() => move(index, -1)}>
                ↑
              </button>
              <button type="button" className="ghost" aria-label={`Move ${row.name} down`} disabled={index === rows.length - 1} onClick={() => move(index, 1)}>
                ↓
              </button>
              <button type="button" className="ghost" aria-label={`Remove ${row.name}`} disabled={rows.length === 1} onClick={() => edit(rows.filter((r) => r.key !== row.key))}>
                Remove
              </button>
              <FieldError id={`${id}-${row.key}`} message={issue} />
            </li>
          );
        })}
      </ol>
      <ErrorNote message={error} />
      <div className="dialog-actions">
        <button type="button" className="secondary" disabled={rows.length >= COURSE_LIMITS.courses} onClick={() => edit([...rows, { key: `new-${(rowCounter += 1)}`, name: '' }])}>
          Add a course
        </button>
        <button type="button" className="primary" disabled={!changed || saving} onClick={() => void save()}>
          Save the courses
        </button>
      </div>
    </section>
  );
}
