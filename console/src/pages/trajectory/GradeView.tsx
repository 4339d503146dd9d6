import type { Schemas } from '../../api';
import { num } from '../../format';
import { ColumnHeads } from '../../components/ColumnHeads';

/** Every component of a grade (what it earned of its weight, and why) and every penalty. */
export function GradeView({ score, components, penalties, caption }: { score: number; components: Schemas['ScoreComponentDto'][]; penalties: Schemas['PenaltyDto'][]; caption: string }) {
  return (
    <div className="grade" data-section="grade">
      <table className="compact">
        <caption>
          {caption}: <strong data-field="score">{num(score)}</strong>
        </caption>
        <ColumnHeads names={['Component', 'Earned / weight', 'Why']} />
        <tbody>
          {components.map((c) => (
            <tr key={c.name} data-component={c.name} className={c.earned >= c.weight ? 'pass' : c.earned > 0 ? 'partial' : 'fail'}>
              <th scope="row">
                <span className="symbol" aria-hidden="true">
                  {c.earned >= c.weight ? '✓' : c.earned > 0 ? '◐' : '✗'}
                </span>{' '}
                {c.name.replaceAll('_', ' ')}
              </th>
              <td className="num">
                {num(c.earned)} / {num(c.weight)}
              </td>
              <td>{c.why}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {penalties.length > 0 ? (
        <ul className="penalties">
          {penalties.map((p) => (
            <li key={p.id} className="verdict verdict-penalty" data-penalty={p.kind}>
              <span aria-hidden="true">⚠</span> −{num(p.penalty)} {p.kind.replaceAll('_', ' ')} at step {p.step} on {p.ticket_id}: {p.reason}
              {p.sentence && (
                <>
                  {' '}
                  (<q>{p.sentence}</q>)
                </>
              )}
            </li>
          ))}
        </ul>
      ) : (
        <p className="subtle">No penalties.</p>
      )}
    </div>
  );
}
