// Latest.xml: the rates as XML in the exrates namespace, valid against xsd.ts.
import type { LatestRatesDocument } from "../types.js";
import { create } from "./xmlbuilder2.js";
import { XML_NAMESPACE } from "./xsd.js";

export function renderXml(doc: LatestRatesDocument): Buffer {
  const root = create({ version: "1.0", encoding: "UTF-8" }).ele(XML_NAMESPACE, "ExchangeRates");
  root.ele(XML_NAMESPACE, "BankId").txt(doc.bankId);
  root.ele(XML_NAMESPACE, "BaseCurrency").txt(doc.baseCurrency);
  root.ele(XML_NAMESPACE, "QuoteType").txt(doc.quoteType);
  const rates = root.ele(XML_NAMESPACE, "Rates").att("effectiveDate", doc.effectiveDate);
  for (const r of doc.rates) {
    const rate = rates.ele(XML_NAMESPACE, "Rate").att("currency", r.currency).att("value", r.rate);
    if (r.unitMultiplier) rate.att("unitMultiplier", String(r.unitMultiplier));
    if (r.validFrom) rate.att("validFrom", r.validFrom).att("validTo", r.validTo!);
    if (r.warning !== undefined) rate.att("warning", r.warning);
  }
  return Buffer.from(`${root.end({ prettyPrint: true, indent: "  " })}\n`, "utf8");
}
