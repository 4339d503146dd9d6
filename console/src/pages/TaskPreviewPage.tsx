import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useLocation, useParams, useSearch } from 'wouter';
import { unwrap } from '../api';
import { Loaded } from '../components/states';
import { useSession } from '../session';
import { TicketView } from './trajectory/ObservationView';

/** The first train seed (seeds divisible by 5 are test seeds: GET /tasks, split_rule). */
const DEFAULT_SEED = 1;

export function TaskPreviewPage() {
  const { taskId } = useParams<{ taskId: string }>();
  const { client } = useSession();
  const [, navigate] = useLocation();
  const requested = Number.parseInt(new URLSearchParams(useSearch()).get('seed') ?? '', 10);
  const seed = Number.isInteger(requested) && requested >= 0 ? requested : DEFAULT_SEED;
  const [draft, setDraft] = useState(String(seed));
  // The box follows the address (Next seed, Back and Forward change it).
  useEffect(() => setDraft(String(seed)), [seed]);
  const preview = useQuery({
    queryKey: ['preview', taskId, seed],
    queryFn: () => unwrap(client.GET('/tasks/{task_id}/instances/{seed}', { params: { path: { task_id: taskId, seed } } })),
    placeholderData: keepPreviousData,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    navigate(`/tasks/${taskId}?seed=${encodeURIComponent(draft.trim())}`);
  };
  return (
    <section>
      <p>
        <Link href="/tasks">← All tasks</Link>
      </p>
      <h1>
        Preview of <code>{taskId}</code>
      </h1>
      <form className="toolbar" onSubmit={submit}>
        <label htmlFor="seed">Seed</label>
        <input id="seed" inputMode="numeric" pattern="[0-9]*" value={draft} onChange={(event) => setDraft(event.target.value)} />
        <button type="submit">Show</button>
        <button type="button" onClick={() => navigate(`/tasks/${taskId}?seed=${seed + 1}`)}>
          Next seed
        </button>
      </form>
      <Loaded query={preview} label="the instance" minHeight={600}>
        {(instance) =>
          (
            <div data-section="preview" data-seed={instance.seed}>
              <p className="note">
                Seed {instance.seed} is a <strong data-field="split">{instance.split}</strong>-split seed; generator {instance.generator_version}; {instance.max_steps} steps. This
                is what an agent meets: no answers are shown.
              </p>
              <h2>{instance.title}</h2>
              <p className="instruction">{instance.observation.instruction}</p>
              <h3>Inbox</h3>
              {instance.tickets.map((ticket) => (
                <TicketView key={ticket.ticket_id} ticket={ticket} heading="Ticket" />
              ))}
            </div>
          )
        }
      </Loaded>
    </section>
  );
}
