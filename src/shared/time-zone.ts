/**
 * The trader's offset from UTC in minutes east (UTC+8: 480), as the server takes it (`tz`): the logs'
 * days, the daily PnL bars and a DCA schedule's hour are the trader's, not UTC's.
 */
export const utcOffsetMinutes = (at = new Date()): number => -at.getTimezoneOffset();
