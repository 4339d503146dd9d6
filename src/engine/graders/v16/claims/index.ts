/** The claim engine's public surface: declarations, extraction once per reply, and judgement. */
export { replyClaimSchema } from './claim.schema';
export type {
  ReplyClaim, MoneyClaim, DurationClaim, DateClaim, ActionClaim, OptionClaim, NearMiss, Currency, DurationUnit,
} from './claim.schema';
export { extractMentions } from './analyse';
export { readLength } from './text';
export type { ReplyAnalysis, AnalysedSentence, SentenceStatus, ExtractOptions, People } from './analyse';
export type { PolicyText } from './policy';
export type { MentionValue, ValueMention } from './mentions';
export { judgeClaims } from './judge';
export type { ClaimVerdict, MissReason } from './judge';
