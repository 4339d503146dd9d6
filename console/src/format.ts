import type { Schemas } from './api';

type Interval = Schemas['IntervalDto'];

export function num(value: number | null | undefined, digits = 3): string {
  return value === null || value === undefined ? '—' : value.toFixed(digits);
}

export function percent(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : `${(value * 100).toFixed(1)}%`;
}

/** "0.812 [0.700, 0.900]": the estimate and its interval, as the API gives them. */
export function interval(value: Interval | null | undefined, digits = 3): string {
  if (!value || value.estimate === null) return '—';
  return value.low === null || value.high === null ? num(value.estimate, digits) : `${num(value.estimate, digits)} [${num(value.low, digits)}, ${num(value.high, digits)}]`;
}

export function dateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toISOString().replace('T', ' ').slice(0, 19) + ' UTC';
}

export function count(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : value.toLocaleString('en-US');
}

export function shortId(id: string): string {
  return id.length > 12 ? `${id.slice(0, 8)}…` : id;
}

/** An action as one line: its type and its arguments. */
export function describeAction(action: unknown): string {
  if (!action || typeof action !== 'object') return String(action);
  const { type, ...rest } = action as Record<string, unknown>;
  const args = Object.entries(rest)
    .map(([key, value]) => `${key}=${typeof value === 'string' ? (value.length > 60 ? JSON.stringify(value.slice(0, 57) + '…') : JSON.stringify(value)) : JSON.stringify(value)}`)
    .join(' ');
  return args ? `${String(type)} ${args}` : String(type);
}
