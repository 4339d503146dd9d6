import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { unwrap } from '../api';
import { Empty, ErrorState, Loading } from '../components/states';
import { count } from '../format';
import { useSession } from '../session';

/** The task catalogue: every family, how hard it is, how it splits, what varies and what makes it hard. */
export function TasksPage() {
  const { client } = useSession();
  const tasks = useQuery({ queryKey: ['tasks'], queryFn: () => unwrap(client.GET('/tasks')) });
  if (tasks.isPending) return <Loading label="the task catalogue" minHeight={600} />;
  if (tasks.isError) return <ErrorState error={tasks.error} retry={() => tasks.refetch()} />;
  if (tasks.data.tasks.length === 0) return <Empty>This server has no tasks (check TASKS_DIR).</Empty>;
  const splitRule = tasks.data.tasks.find((t) => t.family)?.family?.split_rule;
  return (
    <section>
      <h1>Tasks</h1>
      {splitRule && <p className="note">Split rule: {splitRule}. Train-split instances can be previewed with any key; test-split ones with a reader key or the admin key (or in open mode).</p>}
      <div className="task-grid">
        {tasks.data.tasks.map((task) => (
          <article key={task.id} className="card task" data-task={task.id}>
            <h2>
              <Link href={`/tasks/${task.id}`}>{task.title}</Link>
            </h2>
            <p className="subtle">
              <code>{task.id}</code> · <span className={`badge difficulty-${task.difficulty}`}>{task.difficulty}</span>
              {task.family && ` · ${task.family.domain}`} · {task.max_steps_range.min}–{task.max_steps_range.max} steps
            </p>
            {task.family ? (
              <dl className="facts">
                <dt>What varies</dt>
                <dd>{task.family.varies}</dd>
                <dt>What makes it hard</dt>
                <dd>{task.family.hard}</dd>
                <dt>Distinct instances</dt>
                <dd>at least {count(task.family.distinct_instances)}</dd>
                <dt>Generator</dt>
                <dd>{task.family.generator_version}</dd>
              </dl>
            ) : (
              <p>One fixed instance (no family draws others).</p>
            )}
            {task.family && (
              <p>
                <Link href={`/tasks/${task.id}`}>Preview an instance</Link>
              </p>
            )}
          </article>
        ))}
      </div>
    </section>
  );
}
