import type { Schemas } from '../api';

/** A run's cells by state, as a bar and in words. */
export function Progress({ progress }: { progress: Schemas['RunProgressDto'] }) {
  const parts: Array<[keyof Schemas['RunProgressDto'], string]> = [
    ['finished', 'finished'],
    ['active', 'active'],
    ['failed', 'failed'],
    ['abandoned', 'abandoned'],
    ['pending', 'pending'],
  ];
  const total = Math.max(1, progress.cells);
  return (
    <div className="progress">
      <div className="progress-bar" role="img" aria-label={`${progress.finished} of ${progress.cells} cells finished`}>
        {parts.map(([key]) => (progress[key] > 0 ? <span key={key} className={`seg ${key}`} style={{ width: `${(100 * progress[key]) / total}%` }} /> : null))}
      </div>
      <span className="progress-text" data-field="progress">
        {progress.finished}/{progress.cells} finished
        {parts
          .slice(1)
          .filter(([key]) => progress[key] > 0)
          .map(([key, label]) => ` · ${progress[key]} ${label}`)
          .join('')}
      </span>
    </div>
  );
}
