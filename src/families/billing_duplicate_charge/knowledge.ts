import type { Article } from '../kit';
import type { DuplicatePolicy, Policies } from './facts';

/**
 * The knowledge base of one instance. Both duplicate-charge policies are always present: each is the other's
 * near-miss (card refund against account credit, high against normal, and their own windows). Each comes in one
 * of three wordings, so which of the two a query built from the complaint's words ranks first changes from
 * instance to instance. The decisions are written from the drawn policy, in the phrasings agents extract
 * ("Set the priority to", "Route the ticket to the ... team", "resolve the ticket as").
 */
export function buildKnowledgeBase(policies: Policies): Article[] {
  const ids = policies.articleIds;
  return [
    { id: ids.annual, ...annualArticle(policies.annual) },
    { id: ids.monthly, ...monthlyArticle(policies.monthly) },
    { id: ids.cancellation, ...cancellationArticle(policies.cancellationDays) },
    { id: ids.addOn, ...ADD_ON },
    { id: ids.cycles, ...CYCLES },
    { id: ids.billingContact, ...BILLING_CONTACT },
    { id: ids.taxId, ...TAX_ID },
    { id: ids.pdfExport, ...PDF_EXPORT },
    { id: ids.priorities, ...PRIORITIES_GUIDE },
    { id: ids.routing, ...ROUTING_GUIDE },
  ];
}

export type Text = Omit<Article, 'id'>;

/** "5-7 business days", or "10 business days" for a single figure. */
export function windowText(window: { min: number; max: number }): string {
  return window.min === window.max ? `${window.min} business days` : `${window.min}-${window.max} business days`;
}

function decisions(p: DuplicatePolicy): { priority: string; route: string; resolve: string } {
  return {
    priority: `Set the priority to ${p.priority}`,
    route: `Route the ticket to the ${p.team} team.`,
    resolve: `resolve the ticket as ${p.resolution}`,
  };
}

function annualArticle(p: DuplicatePolicy): Text {
  const { priority, route, resolve } = decisions(p);
  const window = windowText(p.window);
  return [
    {
      title: 'Duplicate charges on annual plans',
      body:
        'When it applies: a customer on an annual plan was charged more than once for the same billing period. Duplicates usually happen when the payment gateway times out and retries within minutes, so the two charges have the same amount and the same period. ' +
        `What to do: confirm in the account's recent events that two paid invoices cover the same period. ${priority}, because the customer is out of pocket. ${route} ` +
        `Approve a card refund for the duplicate invoice only, never the original, and ${resolve} with the amount of the duplicate charge. ` +
        `What to tell the customer: the amount being refunded, and that card refunds for annual plans settle within ${window}. Never ask the customer for card details: the refund goes back to the card on file. ` +
        'Exceptions: a pro-rated seat add-on or a charge for a different period is not a duplicate.',
    },
    {
      title: 'Annual subscriptions: charged twice for one period',
      body:
        "When it applies: the customer's plan is billed annually and two paid invoices cover the same annual period, typically minutes apart after a payment-gateway retry. " +
        `What to do: ${priority}. ${route} Refund the later, duplicate invoice to the card it was paid with; the original invoice stays paid. Then ${resolve} with the duplicate invoice's amount. ` +
        `What to tell the customer: how much was refunded, and that the refund settles on their card within ${window}. ` +
        'Exceptions: charges for different periods and pro-rated seat add-ons are not duplicates; monthly plans follow their own duplicate-charge policy.',
    },
    {
      title: 'Annual plan charged twice after a gateway retry',
      body:
        'When it applies: an annual-plan customer sees two identical charges for one renewal, because the gateway retried a payment that had already gone through. ' +
        `What to do: check the recent events; the retried charge is the duplicate. Refund the duplicate charge to the card on file, never the original, and ${resolve} with the duplicate's amount. ${priority}. ${route} ` +
        `What to tell the customer: the amount of the refund, and that it settles on their card within ${window}. ` +
        'Exceptions: a pro-rated seat add-on is an expected charge, not a duplicate.',
    },
  ][p.variant];
}

function monthlyArticle(p: DuplicatePolicy): Text {
  const { priority, route, resolve } = decisions(p);
  const window = windowText(p.window);
  return [
    {
      title: 'Duplicate charges on monthly plans',
      body:
        'When it applies: a customer on a monthly plan was charged twice for the same month, usually because the payment gateway retried a payment it had already taken. ' +
        `What to do: check the recent events for two paid invoices with the same amount and the same period. Do not refund to the card. Apply an account credit for the duplicate amount and ${resolve} with that amount; the credit is used against the next monthly invoice. ${priority}. ${route} ` +
        `What to tell the customer: the credit amount, and that it appears on their next invoice within ${window}. ` +
        'Exceptions: a pro-rated seat add-on is not a duplicate.',
    },
    {
      title: 'Monthly subscriptions: a payment taken twice',
      body:
        'When it applies: the customer pays monthly and the same month was charged twice, minutes apart. ' +
        `What to do: ${priority}. ${route} Monthly plans get no card refund: apply an account credit equal to the duplicate charge and ${resolve} with the credit amount. ` +
        `What to tell the customer: the amount credited to their account, and that the credit shows on their next invoice within ${window}. ` +
        'Exceptions: annual plans are refunded to the card under their own duplicate-charge policy; pro-rated seat add-ons are expected charges.',
    },
    {
      title: 'Monthly plan charged twice after a gateway retry',
      body:
        'When it applies: a monthly-plan customer sees two identical charges for one month, because the gateway retried a payment that had already gone through. ' +
        `What to do: check the recent events; the retried charge is the duplicate. Do not refund it to the card: credit the duplicate amount to the account and ${resolve} with that amount. ${priority}. ${route} ` +
        `What to tell the customer: the amount of the credit, and that it appears on their next invoice within ${window}. ` +
        'Exceptions: a pro-rated seat add-on is an expected charge, not a duplicate.',
    },
  ][p.variant];
}

export function cancellationArticle(days: number): Text {
  return {
    title: 'Refunds within the 14-day cancellation window',
    body:
      'When it applies: a customer cancels a new subscription within 14 days of its first payment. ' +
      'What to do: refund the first payment in full and resolve the ticket as refund_issued with that amount. Set the priority to normal. Route the ticket to the billing team. ' +
      `What to tell the customer: the refund amount, and that cancellation refunds reach the card within ${windowText({ min: days, max: days })}. ` +
      'Exceptions: a renewal of an existing subscription is not a new subscription.',
  };
}

export const ADD_ON: Text = {
  title: 'Pro-rated seat add-on charges',
  body:
    'When it applies: a customer asks about a smaller charge after adding seats in the middle of a billing period. ' +
    'What to do: explain that new seats are charged pro rata from the day they were added to the end of the period; these charges are expected and are not duplicates, so nothing is refunded. Set the priority to low. Route the ticket to the billing team. Resolve the ticket as information_provided. ' +
    'What to tell the customer: how the pro-rated amount was worked out. ' +
    'Exceptions: seats removed on the day they were added are not charged.',
};

export const CYCLES: Text = {
  title: 'Annual versus monthly billing',
  body:
    'When it applies: a customer asks whether annual or monthly billing costs less, or wants to switch. ' +
    'What to do: explain that annual billing costs the same as ten months of monthly billing, and that a switch from monthly to annual credits the unused part of the current month. Set the priority to low. Route the ticket to the billing team. Resolve the ticket as information_provided. ' +
    'What to tell the customer: the price of each billing cycle for their seat count. ' +
    'Exceptions: a switch from annual to monthly takes effect at the next renewal.',
};

export const BILLING_CONTACT: Text = {
  title: 'Changing the billing contact',
  body:
    'When it applies: a customer wants invoices sent to a different email address. ' +
    'What to do: update the billing contact in Billing settings once the request comes from an account admin. Set the priority to low. Route the ticket to the billing team. Resolve the ticket as information_provided. ' +
    'What to tell the customer: that future invoices go to the new address. ' +
    'Exceptions: a change of account owner goes through general support.',
};

export const TAX_ID: Text = {
  title: 'VAT and tax numbers on invoices',
  body:
    'When it applies: a customer asks for a VAT or tax number to be shown on their invoices. ' +
    'What to do: add the number under Billing settings > Tax details. Set the priority to low. Route the ticket to the billing team. Resolve the ticket as information_provided. ' +
    'What to tell the customer: that invoices issued from now on show the number. ' +
    'Exceptions: invoices already issued are not reissued for a tax number.',
};

export const PDF_EXPORT: Text = {
  title: 'Invoice PDF export fails',
  body:
    'When it applies: the Download PDF button on the invoices page does nothing or returns an error. ' +
    'What to do: Set the priority to normal. Route the ticket to the technical_support team with the request id from the error. Resolve the ticket as information_provided once the workaround is sent. ' +
    'What to tell the customer: invoices can be emailed from Billing settings > Invoices > Send by email while the export is fixed. ' +
    'Exceptions: when the export fails for every customer, it is an incident for the on-call engineer.',
};

const PRIORITIES_GUIDE: Text = {
  title: 'Ticket priority guidelines',
  body:
    'Low: questions and requests with no impact. Normal: issues that do not block work or cost the customer money. High: the customer is blocked or out of pocket because of us. ' +
    'Urgent: security incidents, data exposure, and contractual deadlines we are about to miss. Where a policy article sets a priority, the article takes precedence over these guidelines.',
};

const ROUTING_GUIDE: Text = {
  title: 'Routing guide',
  body:
    'billing: charges, refunds, credits and invoices. technical_support: product faults, including invoice exports. security_ops: suspected account compromise. ' +
    'logistics: shipping and delivery. vip_concierge: VIP accounts whose service agreement assigns incidents to the concierge. general_support: everything else.',
};
