export { DAY_MS, HOUR_MS, MINUTE_MS, MONTHS, WEEKDAYS, dayMonth, longDate, ordinal, weekdayDayMonth } from './calendar';
export { amountOf, usd, usdFromCents, usdUngrouped } from './money';
export { ACCEPTED_CARD_BRANDS } from './company';
