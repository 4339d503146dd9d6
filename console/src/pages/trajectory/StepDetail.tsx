import { useQuery } from '@tanstack/react-query';
import { unwrap, type Schemas } from '../../api';
import { ErrorState, Loading } from '../../components/states';
import { describeAction, num } from '../../format';
import { useSession } from '../../session';
import { GradeView } from './GradeView';
import { ObservationView } from './ObservationView';
import { ReplyView } from './ReplyView';
import { ColumnHeads } from '../../components/ColumnHeads';

/** One step of an episode, replayed by the server (GET /episodes/{id}/steps/{n}). */
export function useStep(episodeId: string, step: number) {
  const { client } = useSession();
  return useQuery({
    queryKey: ['step', episodeId, step],
    queryFn: () => unwrap(client.GET('/episodes/{episode_id}/steps/{step}', { params: { path: { episode_id: episodeId, step } } })),
    staleTime: Infinity,
  });
}

export function StepDetail({ episodeId, step }: { episodeId: string; step: number }) {
  const view = useStep(episodeId, step);
  if (view.isPending) return <Loading label={`step ${step}`} minHeight={700} />;
  if (view.isError) return <ErrorState error={view.error} retry={() => view.refetch()} />;
  const s = view.data;
  const entry = s.entry as Schemas['ActionLogEntryDto'] | null;
  return (
    <div className="step-detail" data-step={s.step}>
      <h3>{s.step === 0 ? 'Step 0: as reset left it' : `Step ${s.step} of ${s.step_count}`}</h3>
      {entry && (
        <div className="card action">
          <p>
            <code data-field="action">{describeAction(entry.action)}</code>
          </p>
          <p>
            {entry.outcome}
            {entry.error && <span className="error-message"> Refused: {entry.error}</span>}
          </p>
          <p className="subtle">
            reward <span data-field="reward">{num(entry.reward)}</span> · score after <span data-field="score_after">{num(entry.score_after)}</span> · stored {entry.created_at}
          </p>
        </div>
      )}
      <h4>What changed</h4>
      {s.changes.length === 0 ? (
        <p className="subtle">{s.step === 0 ? 'Nothing yet: this is the start.' : 'Nothing in the environment changed.'}</p>
      ) : (
        <table className="compact diff" data-section="changes">
          <ColumnHeads names={['Field', 'Ticket', 'Before', 'After']} />
          <tbody>
            {s.changes.map((change, i) => (
              <tr key={i} data-change={change.field}>
                <th scope="row">{change.field.replaceAll('_', ' ')}</th>
                <td>{change.ticket_id ?? '—'}</td>
                <td className="before">{change.field === 'reply' ? '—' : (change.before ?? '—')}</td>
                <td className="after">
                  {change.field === 'reply' && change.after !== null ? (
                    <ReplyView text={change.after} step={s.step} details={s.reply_details} penalties={s.penalties} />
                  ) : (
                    (change.after ?? '—')
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h4>What the agent saw after this step</h4>
      <ObservationView observation={s.observation} />
      <h4>Grade after this step</h4>
      <GradeView score={s.score} components={s.components} penalties={s.penalties} caption={`Score after step ${s.step}`} />
    </div>
  );
}
