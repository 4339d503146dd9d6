import type { Schemas } from '../../api';
import { describeAction, num } from '../../format';
import { ColumnHeads } from '../../components/ColumnHeads';

/** What the agent saw after a step: the inbox, the ticket it had open, its last search, and any error. */
export function ObservationView({ observation }: { observation: Schemas['ObservationDto'] }) {
  const ticket = observation.active_ticket as Schemas['ActiveTicketDto'] | null;
  const search = observation.search_results as Schemas['SearchResultsDto'] | null;
  return (
    <div className="observation" data-section="observation">
      <p className="note">
        Step {observation.step_count}, {observation.remaining_steps} steps left; score shown to the agent: {observation.score === null ? 'withheld (final feedback)' : num(observation.score)}.
      </p>
      {observation.last_action_error && (
        <p className="error-message" role="note">
          Last action refused: {observation.last_action_error}
        </p>
      )}
      <h4>Inbox</h4>
      <table className="compact">
        <ColumnHeads names={['Ticket', 'Customer', 'Subject', 'Status']} />
        <tbody>
          {observation.inbox.map((entry) => (
            <tr key={entry.ticket_id} className={ticket?.ticket_id === entry.ticket_id ? 'current' : undefined}>
              <td>{entry.ticket_id}</td>
              <td>{entry.customer_name}</td>
              <td>{entry.subject}</td>
              <td>{entry.status}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {ticket ? <TicketView ticket={ticket} heading="Open ticket" /> : <p className="subtle">No ticket open.</p>}
      {search && (
        <>
          <h4>
            Search results for <q>{search.query}</q>
          </h4>
          {search.results.length === 0 ? (
            <p className="subtle">No article matched.</p>
          ) : (
            <ol className="search-results">
              {search.results.map((hit) => (
                <li key={hit.article_id}>
                  <strong>{hit.title}</strong> <span className="subtle">({hit.article_id}, score {num(hit.score, 2)})</span>
                  <p>{hit.snippet}</p>
                </li>
              ))}
            </ol>
          )}
        </>
      )}
      {observation.recent_actions.length > 0 && (
        <>
          <h4>Recent actions the agent was shown</h4>
          <ol className="recent">
            {observation.recent_actions.map((a) => (
              <li key={a.step} value={a.step}>
                <code>{describeAction(a.action)}</code> — {a.outcome}
                {a.error ? ` (refused: ${a.error})` : ''}
              </li>
            ))}
          </ol>
        </>
      )}
    </div>
  );
}

export function TicketView({ ticket, heading }: { ticket: Schemas['ActiveTicketDto']; heading: string }) {
  return (
    <div className="ticket" data-ticket={ticket.ticket_id}>
      <h4>
        {heading}: {ticket.ticket_id} — {ticket.subject}
      </h4>
      <p className="subtle">
        {ticket.customer.name} ({ticket.customer.tier}, account {ticket.customer.account}) · priority {ticket.priority} · team {ticket.team ?? 'none'} · {ticket.status}
      </p>
      <p className="ticket-body">{ticket.body}</p>
      {ticket.contract_notes.length > 0 && (
        <>
          <h5>Contract notes</h5>
          <ul>
            {ticket.contract_notes.map((note, i) => (
              <li key={i}>{String(note)}</li>
            ))}
          </ul>
        </>
      )}
      {ticket.recent_events.length > 0 && (
        <>
          <h5>Recent events</h5>
          <ul>
            {ticket.recent_events.map((event, i) => (
              <li key={i}>
                <code>{event.at}</code> {event.kind}: {event.detail}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
