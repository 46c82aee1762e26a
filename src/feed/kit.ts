// What every adapter imports: the contract, exact decimals, dates, body checks, errors, the row reader
// that holds a bad row (rows.ts) and currency codes and names (currency.ts)
// (`import { ... } from "../src/feed/kit.js"`). The readers beside it (csv.ts, sdmx-csv.ts,
// spreadsheet.ts, sheet-rows.ts, pdf-text.ts, html-links.ts, month-names.ts, float-json.ts) are imported
// directly by the adapters that need them, so that loading one bank does not load exceljs, pdf.js and
// cheerio for all.
// docs/ADDING-A-BANK.md says which to use when.
export type {
  BankAdapter,
  BankDescriptor,
  BankName,
  FeedDocument,
  FetchContext,
  FetchRange,
  HeldRow,
  ParsedAnswer,
  RowFields,
  UnitlessFigure,
  HttpClient,
  IsoDate,
  ParseContext,
  RateRecord,
  Weekday,
} from "../types.js";
export { FeedError, FigureOutOfBounds, HttpError, RowProblem } from "../errors.js";
export { EURO_AREA, US_DOLLAR_AREA, baseCurrencyOf, defineAdapter } from "./adapter.js";
export { TARGET2_CLOSINGS } from "../calendar/target2.js";
export {
  GRAMS_PER_TROY_OUNCE,
  invert,
  mean,
  multiply,
  perUnits,
  figureProblem,
  quoteFigure,
  readDecimal,
  type DecimalSyntax,
  type UnitRate,
} from "./decimal.js";
export {
  addDays,
  chunkRange,
  daysBetween,
  fromDayMonthYear,
  isIsoDate,
  isoFromParts,
  todayIn,
  weekday,
  weekdaysBetween,
} from "./dates.js";
export {
  asArray,
  decodeText,
  expectFeedText,
  isHttpNotFound,
  isJsonObject,
  jsonFieldText,
  jsonNumberText,
  looksLikeHtml,
  parseJsonExact,
  parseXml,
  readXmlRoot,
} from "./body.js";
export { credentialFrom, pause, recentDays } from "./helpers.js";
export {
  AnswerRows,
  noPublication,
  readRows,
  requireDate,
  requireDateParts,
  requireDecimal,
  requireUnits,
  rowProblem,
  unitNotEstablished,
  withNameDerivation,
} from "./rows.js";
export { foldName } from "./fold.js";
export { isIsoCurrency, isPublishableCurrency, requireCurrencyCode } from "./currency.js";
export {
  currencyFromName,
  currencyOf,
  resolveCurrency,
  resolveCurrencyName,
  type CurrencyLabels,
  type CurrencyNameOptions,
  type CurrencyResolution,
} from "./currency-names.js";
