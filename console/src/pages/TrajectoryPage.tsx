import { useState } from 'react';
import { useLocation, useParams, useSearch } from 'wouter';
import type { Schemas } from '../api';
import { ErrorState, Loading } from '../components/states';
import { shortId } from '../format';
import { GradeView } from './trajectory/GradeView';
import { SideBySide } from './trajectory/SideBySide';
import { StepDetail, useStep } from './trajectory/StepDetail';
import { StepList } from './trajectory/StepList';
import { ReplyDetailsTable } from './trajectory/ReplyDetailsTable';
import { EpisodeHeader, useEpisode } from './trajectory/EpisodeHeader';

export function TrajectoryPage() {
  const { episodeId } = useParams<{ episodeId: string }>();
  const params = new URLSearchParams(useSearch());
  const [, navigate] = useLocation();
  const vs = params.get('vs');
  const requested = Number.parseInt(params.get('step') ?? '0', 10);
  const { detail, actions } = useEpisode(episodeId);
  if (detail.isPending || actions.isPending) return <Loading label="the episode" minHeight={800} />;
  if (detail.isError) return <ErrorState error={detail.error} retry={() => detail.refetch()} />;
  if (actions.isError) return <ErrorState error={actions.error} retry={() => actions.refetch()} />;
  const episode = detail.data;
  const entries = actions.data.actions;
  const wanted = Number.isFinite(requested) ? Math.max(0, requested) : 0;
  const hrefOf = (n: number) => `/episodes/${episodeId}?step=${n}${vs ? `&vs=${encodeURIComponent(vs)}` : ''}`;
  // Two episodes side by side are stepped to the end of the longer one (it clamps the step itself).
  if (vs) return <SideBySide a={episode} aEntries={entries} b={vs} wanted={wanted} hrefOf={hrefOf} onSelect={(n) => navigate(hrefOf(n), { replace: true })} />;
  const step = Math.min(wanted, entries.length);
  return (
    <section>
      <h1>
        Episode <span className="subtle">{shortId(episode.episode_id)}</span>
      </h1>
      <EpisodeHeader episode={episode} />
      <div className="trajectory">
        <aside className="steps-pane">
          <h2>Steps</h2>
          <StepList entries={entries} selected={step} hrefOf={hrefOf} onSelect={(n) => navigate(hrefOf(n), { replace: true })} />
          <CopyLink />
        </aside>
        <div className="step-pane">
          <StepDetail episodeId={episode.episode_id} step={step} />
        </div>
      </div>
      <FinalGrade episode={episode} steps={entries.length} hrefOf={hrefOf} />
    </section>
  );
}

function FinalGrade({ episode, steps, hrefOf }: { episode: Schemas['EpisodeDetailDto']; steps: number; hrefOf(step: number): string }) {
  // The reply details of the final grade come with the last step's view.
  const last = useStep(episode.episode_id, steps);
  return (
    <section className="final-grade">
      <h2>Final grade</h2>
      <GradeView score={episode.score} components={episode.components} penalties={episode.penalties} caption={episode.status === 'active' ? 'Score so far' : 'Final score'} />
      <h3>Reply details</h3>
      {last.isPending ? <Loading label="the reply details" minHeight={120} /> : last.isError ? <ErrorState error={last.error} /> : <ReplyDetailsTable details={last.data.reply_details} hrefOf={hrefOf} />}
    </section>
  );
}

function CopyLink() {
  const [said, say] = useState('');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(window.location.href);
      say('Copied.');
    } catch {
      // The clipboard is only given to pages served over https or from localhost.
      say(`Copy it from the address bar: ${window.location.href}`);
    }
  };
  return (
    <p className="subtle">
      This step has its own address.{' '}
      <button type="button" onClick={() => void copy()}>
        Copy link
      </button>{' '}
      <span aria-live="polite">{said}</span>
    </p>
  );
}
