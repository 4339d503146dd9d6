import { Link } from 'wouter';
import type { Schemas } from '../../api';
import { ColumnHeads } from '../../components/ColumnHeads';

/** Every detail the replies had to give: covered or not, the sentence that decided it, and the step of that reply. */
export function ReplyDetailsTable({ details, hrefOf }: { details: Schemas['ReplyDetailGradeDto'][]; hrefOf?: (step: number) => string }) {
  if (details.length === 0) return <p className="subtle">This task grades no reply details.</p>;
  return (
    <table className="compact" data-section="reply-details">
      <ColumnHeads names={['Detail', 'Verdict', 'Sentence', 'Reply at step']} />
      <tbody>
        {details.map((d) => (
          <tr key={d.id} data-detail={d.id} className={d.covered ? 'pass' : 'fail'}>
            <th scope="row">{d.description ?? d.id}</th>
            <td>
              <span aria-hidden="true">{d.covered ? '✓ ' : '✗ '}</span>
              {d.covered ? 'covered' : (d.reason ?? 'not covered').replaceAll('_', ' ')}
            </td>
            <td>{d.sentence ? <q>{d.sentence}</q> : '—'}</td>
            <td className="num">{d.reply_step === null ? '—' : hrefOf ? <Link href={hrefOf(d.reply_step)}>{d.reply_step}</Link> : d.reply_step}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
