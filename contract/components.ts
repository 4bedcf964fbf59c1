/**
 * The shared answer shapes by the names the OpenAPI document gives them as components (a call's own
 * answer is named after the call): a peer's generated client gets one `BotSummary`, not one per call.
 */
import { publicUserSchema, loginDataSchema, nonceSchema } from './auth.ts';
import { profileSchema, securityInfoSchema, sessionRowSchema } from './account.ts';
import { botActionSchema, botDetailSchema, botInfoSchema, botLogLineSchema, botOrderSchema, botPositionSchema, botSummarySchema } from './bots.ts';
import { botRankEntrySchema, rankEntrySchema, referralMemberSchema } from './community.ts';
import { apiBindingSchema, exchangeBalanceSchema, portfolioAccountSchema } from './exchanges.ts';
import { accountBalancesSchema, accountLogSchema, depositRecordSchema, withdrawalRecordSchema } from './funds.ts';
import { bannerSchema, botTemplateSchema, botTypeSchema, exchangeInfoSchema, symbolInfoSchema, tickerSchema } from './market.ts';
import { noticeSchema } from './notices.ts';
import { billLogSchema, openPositionSchema } from './returns.ts';
import { paramsSchemas } from '../strategy/params.ts';

export const namedAnswers = {
  LoginData: loginDataSchema,
  PublicUser: publicUserSchema,
  Profile: profileSchema,
  AccountBalances: accountBalancesSchema,
  ExchangeBalance: exchangeBalanceSchema,
  Notice: noticeSchema,
  ApiBinding: apiBindingSchema,
  Ticker: tickerSchema,
  SymbolInfo: symbolInfoSchema,
  ExchangeInfo: exchangeInfoSchema,
  BotType: botTypeSchema,
  BotTemplate: botTemplateSchema,
  Banner: bannerSchema,
  AccountLog: accountLogSchema,
  BillLog: billLogSchema,
  DepositRecord: depositRecordSchema,
  WithdrawalRecord: withdrawalRecordSchema,
  RankEntry: rankEntrySchema,
  BotRankEntry: botRankEntrySchema,
  ReferralMember: referralMemberSchema,
  // Each bot type's parameters, named as MartinParams, GridParams, ... (strategy/params.ts).
  ...Object.fromEntries(Object.entries(paramsSchemas).map(([type, schema]) => [`${type[0]!.toUpperCase()}${type.slice(1)}Params`, schema])),
  BotSummary: botSummarySchema,
  BotInfo: botInfoSchema,
  BotDetail: botDetailSchema,
  BotPosition: botPositionSchema,
  BotOrder: botOrderSchema,
  BotAction: botActionSchema,
  BotLogLine: botLogLineSchema,
  PortfolioAccount: portfolioAccountSchema,
  OpenPosition: openPositionSchema,
  Nonce: nonceSchema,
  SecurityInfo: securityInfoSchema,
  SessionRow: sessionRowSchema,
} as const;
