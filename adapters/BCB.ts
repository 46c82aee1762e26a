// Banco Central do Brasil: the PTAX closing bulletin ("Fechamento") from the Olinda OData API.
// - Endpoint: GET https://olinda.bcb.gov.br/olinda/servico/PTAX/versao/v1/odata/CotacaoMoedaPeriodo(moeda=@moeda,
//   dataInicial=@dataInicial,dataFinalCotacao=@dataFinalCotacao) with `@moeda='USD'`, the two dates as
//   'MM-DD-YYYY', `$filter=tipoBoletim eq 'Fechamento'` and `$format=json`: one call per currency (AUD CAD CHF
//   DKK EUR GBP JPY NOK SEK USD).
// - The answer is JSON `{ "@odata.context", value: [...] }`, one item per bulletin: `cotacaoCompra`,
//   `cotacaoVenda` (JSON numbers, five decimals kept), `paridade*`, `dataHoraCotacao` ("2026-03-02
//   13:09:26.433") and `tipoBoletim`. It does not name its currency: parse reads it from the @moeda alias of
//   the URL. Opening and intermediate bulletins ("Abertura", "Intermediário") are not PTAX: skipped.
// - BRL per 1 foreign unit (Direct). The official PTAX figure is the SELLING rate (cotacaoVenda), the one
//   contracts and the tax authority refer to; it is not a mid.
// - The closing bulletin comes out shortly after 13:00 Brasília time on business days (the recordings:
//   13:03-13:10).
import {
  FeedError,
  readRows,
  requireDate,
  requireDecimal,
  rowProblem,
  defineAdapter,
  isIsoDate,
  jsonNumberText,
  parseJsonExact,
  recentDays,
  type FeedDocument,
  type IsoDate,
} from "../src/feed/kit.js";

const ID = "BCB";
const SERVICE = "https://olinda.bcb.gov.br/olinda/servico/PTAX/versao/v1/odata";
const PERIOD = `${SERVICE}/CotacaoMoedaPeriodo(moeda=@moeda,dataInicial=@dataInicial,dataFinalCotacao=@dataFinalCotacao)`;
const TIME_ZONE = "America/Sao_Paulo";

/** The currencies PTAX publishes. */
export const BCB_CURRENCIES = ["AUD", "CAD", "CHF", "DKK", "EUR", "GBP", "JPY", "NOK", "SEK", "USD"] as const;

type Node = Record<string, unknown>;

/** OData dates are MM-DD-YYYY in single quotes. */
const odataDate = (date: IsoDate) => `%27${date.slice(5, 7)}-${date.slice(8, 10)}-${date.slice(0, 4)}%27`;

const periodUrl = (currency: string, from: IsoDate, to: IsoDate) =>
  `${PERIOD}?@moeda=%27${currency}%27&@dataInicial=${odataDate(from)}&@dataFinalCotacao=${odataDate(to)}&$filter=tipoBoletim%20eq%20%27Fechamento%27&$format=json`;

function currencyOf(url: string): string {
  let decoded = url;
  try {
    decoded = decodeURIComponent(url);
  } catch {
    // keep the raw URL
  }
  const code = /[?&]@moeda='([A-Z]{3})'/.exec(decoded)?.[1];
  if (!code || !(BCB_CURRENCIES as readonly string[]).includes(code))
    throw new FeedError(ID, `cannot tell the currency from the URL (no known @moeda in "${url.slice(0, 200)}")`);
  return code;
}

const bcb = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Central Bank of Brazil", abbreviatedName: "BCB" },
      { languageCode: "pt", name: "Banco Central do Brasil", abbreviatedName: "BCB" },
    ],
    // The closing PTAX bulletin comes out shortly after 13:00 Brasília time (the recordings: 13:03-13:10).
    dailyUpdateTime: "13:10:00",
    bankCurrency: "BRL",
    countryCode: ["BR"],
    region: ["Americas"],
    timeZone: TIME_ZONE,
    website: "https://www.bcb.gov.br",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "1984-11-28",
    maxRangeDays: 366,
    sourceUrl: `${SERVICE}/`,
  },

  async fetch(range, { http }) {
    const { from, to } = range.kind === "range" ? range : recentDays(TIME_ZONE, 10);
    const docs: FeedDocument[] = [];
    for (const currency of BCB_CURRENCIES)
      docs.push(await http.get(periodUrl(currency, from, to), { accept: "application/json" }));
    return docs;
  },

  parse(body, { url }) {
    const currency = currencyOf(url);
    const json = parseJsonExact(ID, body) as Node;
    if (typeof json !== "object" || json === null || !Array.isArray(json.value)) {
      throw new FeedError(ID, "not a PTAX OData answer: no value array");
    }
    const items = json.value as unknown[];
    const head = items.find((row): row is Node => typeof row === "object" && row !== null);
    if (head && !("tipoBoletim" in head && "dataHoraCotacao" in head)) {
      throw new FeedError(ID, `the layout changed: value items have ${Object.keys(head).join(", ")}`);
    }
    return readRows(
      ID,
      items,
      (_row, i) => `value[${i}]`,
      (item) => {
        if (typeof item !== "object" || item === null) rowProblem(ID, "bad-row", "not an object");
        const row = item as Node;
        if (row.tipoBoletim !== "Fechamento") return undefined; // opening and intermediate bulletins are not PTAX
        const stamp = typeof row.dataHoraCotacao === "string" ? row.dataHoraCotacao : String(row.dataHoraCotacao);
        const day = stamp.slice(0, 10);
        const date = requireDate(ID, isIsoDate(day) ? day : undefined, stamp);
        const raw = jsonNumberText(row.cotacaoVenda);
        const rate = requireDecimal(ID, raw ?? "", `${currency} cotacaoVenda`);
        if (!/[1-9]/.test(rate)) rowProblem(ID, "bad-rate", `${currency} cotacaoVenda "${rate}" is zero`, { rate });
        return { effectiveDate: date, currency, rate };
      },
    );
  },
});

export default bcb;
