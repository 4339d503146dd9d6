import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { unwrap, type Schemas } from '../../api';
import { ErrorState } from '../../components/states';
import { dateTime, num } from '../../format';
import { useSession } from '../../session';

export function useEpisode(episodeId: string) {
  const { client } = useSession();
  const path = { params: { path: { episode_id: episodeId } } };
  const detail = useQuery({ queryKey: ['episode', episodeId], queryFn: () => unwrap(client.GET('/episodes/{episode_id}', path)) });
  const actions = useQuery({ queryKey: ['actions', episodeId], queryFn: () => unwrap(client.GET('/episodes/{episode_id}/actions', path)) });
  return { detail, actions };
}

export function EpisodeHeader({ episode }: { episode: Schemas['EpisodeDetailDto'] }) {
  return (
    <div className="card">
      <dl className="facts">
        <dt>Task</dt>
        <dd>
          <TaskLink episode={episode} /> (seed {episode.seed}, {episode.variant}
          {episode.split ? `, ${episode.split} split` : ''}
          {episode.split_source === 'private' ? ', private' : ''}, task version {episode.task_version})
        </dd>
        <dt>Agent</dt>
        <dd>{episode.agent ?? '—'}</dd>
        <dt>Feedback</dt>
        <dd>{episode.feedback}</dd>
        <dt>Status</dt>
        <dd data-field="status">{episode.status.replaceAll('_', ' ')}</dd>
        <dt>Score</dt>
        <dd data-field="score">{num(episode.score)}</dd>
        <dt>Steps</dt>
        <dd>{episode.step_count}</dd>
        <dt>Grader</dt>
        <dd>v{episode.grader_version}</dd>
        <dt>Started</dt>
        <dd>{dateTime(episode.created_at)}</dd>
        {episode.tags.length > 0 && (
          <>
            <dt>Tags</dt>
            <dd>{episode.tags.join(', ')}</dd>
          </>
        )}
      </dl>
      <VerifyStatus episodeId={episode.episode_id} />
    </div>
  );
}

/**
 * The task, linked to the preview of this episode's instance where the preview draws the same one: a generated,
 * public-split instance of the generator new episodes use. A canonical, private-split or older-generator episode
 * ran an instance the preview would not show, so its task is not linked.
 */
function TaskLink({ episode }: { episode: Schemas['EpisodeDetailDto'] }) {
  const { client } = useSession();
  const tasks = useQuery({ queryKey: ['tasks'], queryFn: () => unwrap(client.GET('/tasks')) });
  const current = tasks.data?.tasks.find((t) => t.id === episode.task_id)?.family?.generator_version;
  const previewable = episode.variant === 'generated' && episode.split_source !== 'private' && current === episode.task_version;
  return previewable ? (
    <Link href={`/tasks/${episode.task_id}?seed=${episode.seed}`} title="Preview this instance">
      {episode.task_id}
    </Link>
  ) : (
    <>{episode.task_id}</>
  );
}

function VerifyStatus({ episodeId }: { episodeId: string }) {
  const { client } = useSession();
  const verify = useQuery({
    queryKey: ['verify', episodeId],
    queryFn: () => unwrap(client.GET('/episodes/{episode_id}/verify', { params: { path: { episode_id: episodeId } } })),
  });
  if (verify.isPending) return <p className="verify subtle">Verifying the hash chain and replaying the log…</p>;
  if (verify.isError) return <ErrorState error={verify.error} />;
  const v = verify.data;
  const ok = v.chain_ok && v.replay_ok && v.ledger_ok;
  return (
    <p className={`verify ${ok ? 'verify-ok' : 'verify-bad'}`} data-section="verify">
      <span className={`badge ${v.chain_ok ? 'ok' : 'bad'}`}>chain {v.chain_ok ? 'intact' : 'broken'}</span>{' '}
      <span className={`badge ${v.replay_ok ? 'ok' : 'bad'}`}>replay {v.replay_ok ? 'matches' : 'differs'}</span>{' '}
      <span className={`badge ${v.ledger_ok ? 'ok' : 'bad'}`}>ledger {v.ledger_ok ? 'agrees' : 'disagrees'}</span>{' '}
      <span className="subtle">
        ({v.chain_scheme}; stored score {num(v.stored_score)}, replayed {num(v.replayed_score)})
      </span>
      {!ok && v.problem && <span className="error-message"> {v.problem}</span>}
    </p>
  );
}

