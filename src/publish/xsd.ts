// The XML schema of the rates document (Latest.xml), published at /v1/schemas/exchange-rates-1.0.xsd.
export const XML_NAMESPACE = "urn:exrates:exchange-rates:1.0";
export const XSD_PATH = "v1/schemas/exchange-rates-1.0.xsd";

export const EXCHANGE_RATES_XSD = `<?xml version="1.0" encoding="UTF-8"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"
           xmlns="${XML_NAMESPACE}"
           targetNamespace="${XML_NAMESPACE}"
           elementFormDefault="qualified"
           version="1.0">
  <xs:simpleType name="BankIdType">
    <xs:restriction base="xs:string">
      <xs:pattern value="[A-Z][A-Z0-9]{1,9}"/>
    </xs:restriction>
  </xs:simpleType>
  <xs:simpleType name="CurrencyCodeType">
    <xs:restriction base="xs:string">
      <xs:pattern value="[A-Z]{3}"/>
    </xs:restriction>
  </xs:simpleType>
  <xs:simpleType name="QuoteTypeType">
    <xs:restriction base="xs:string">
      <xs:enumeration value="Direct"/>
      <xs:enumeration value="Indirect"/>
    </xs:restriction>
  </xs:simpleType>
  <xs:simpleType name="RateValueType">
    <xs:restriction base="xs:decimal">
      <xs:minExclusive value="0"/>
    </xs:restriction>
  </xs:simpleType>
  <xs:simpleType name="UnitMultiplierType">
    <xs:restriction base="xs:integer">
      <xs:minInclusive value="1"/>
      <xs:maxInclusive value="9"/>
    </xs:restriction>
  </xs:simpleType>
  <xs:complexType name="RateType">
    <xs:attribute name="currency" type="CurrencyCodeType" use="required"/>
    <xs:attribute name="value" type="RateValueType" use="required"/>
    <xs:attribute name="unitMultiplier" type="UnitMultiplierType" use="optional"/>
    <!-- A period source's figure (monthly, quarterly): the first and last day it is in force. -->
    <xs:attribute name="validFrom" type="xs:date" use="optional"/>
    <xs:attribute name="validTo" type="xs:date" use="optional"/>
    <!-- Present only on a figure published with a warning (the cross-bank check doubted it): why. -->
    <xs:attribute name="warning" type="xs:string" use="optional"/>
  </xs:complexType>
  <!-- A figure as a bank published it, for its number of units (a conversion's figures, a pair's). -->
  <xs:attributeGroup name="UnitFigureAttributes">
    <xs:attribute name="currency" type="CurrencyCodeType" use="required"/>
    <xs:attribute name="value" type="RateValueType" use="required"/>
    <xs:attribute name="unit" type="xs:positiveInteger" use="required"/>
  </xs:attributeGroup>
  <!-- A figure derived by division (a cross, a mean): the significant digits kept and how it was rounded. -->
  <xs:attributeGroup name="DerivedDigitsAttributes">
    <xs:attribute name="digits" type="xs:positiveInteger" use="required"/>
    <xs:attribute name="rounding" type="xs:string" use="required"/>
  </xs:attributeGroup>
  <!-- The days a document covers, both included. -->
  <xs:attributeGroup name="DateRangeAttributes">
    <xs:attribute name="from" type="xs:date" use="required"/>
    <xs:attribute name="to" type="xs:date" use="required"/>
  </xs:attributeGroup>
  <!-- Where figures came from: kind="fetch", the bank's answer (url with secrets masked, fetchedAt), or
       kind="import", a file an operator imported (file, importedBy, importedAt, and declaredUrl: the URL
       the importer declared, never fetched). Older documents carry no kind: each was a fetch. -->
  <xs:simpleType name="SourceKindType">
    <xs:restriction base="xs:string">
      <xs:enumeration value="fetch"/>
      <xs:enumeration value="import"/>
    </xs:restriction>
  </xs:simpleType>
  <xs:attributeGroup name="ImportAttributes">
    <xs:attribute name="kind" type="SourceKindType" use="optional"/>
    <xs:attribute name="file" type="xs:string" use="optional"/>
    <xs:attribute name="importedBy" type="xs:string" use="optional"/>
    <xs:attribute name="importedAt" type="xs:dateTime" use="optional"/>
    <xs:attribute name="declaredUrl" type="xs:string" use="optional"/>
  </xs:attributeGroup>
  <!-- ?provenance=true: a bank's answer or an imported file the date's figures came from. -->
  <xs:complexType name="SourceType">
    <xs:attribute name="url" type="xs:string" use="optional"/>
    <xs:attribute name="fetchedAt" type="xs:dateTime" use="optional"/>
    <xs:attributeGroup ref="ImportAttributes"/>
    <xs:attribute name="sha256" use="optional">
      <xs:simpleType>
        <xs:restriction base="xs:string">
          <xs:pattern value="[0-9a-f]{64}"/>
        </xs:restriction>
      </xs:simpleType>
    </xs:attribute>
    <!-- Only when the date's figures came from more than one answer: the currencies this one gave. -->
    <xs:attribute name="currencies" use="optional">
      <xs:simpleType>
        <xs:list itemType="CurrencyCodeType"/>
      </xs:simpleType>
    </xs:attribute>
  </xs:complexType>
  <xs:complexType name="RatesType">
    <xs:sequence>
      <xs:element name="Rate" type="RateType" minOccurs="0" maxOccurs="unbounded"/>
      <xs:element name="Source" type="SourceType" minOccurs="0" maxOccurs="unbounded"/>
    </xs:sequence>
    <xs:attribute name="effectiveDate" type="xs:date" use="required"/>
  </xs:complexType>
  <xs:element name="ExchangeRates">
    <xs:complexType>
      <xs:sequence>
        <xs:element name="BankId" type="BankIdType"/>
        <xs:element name="BaseCurrency" type="CurrencyCodeType"/>
        <xs:element name="QuoteType" type="QuoteTypeType"/>
        <!-- A document "as known at" an instant (?asOf=) names it. -->
        <xs:element name="AsOf" type="xs:dateTime" minOccurs="0"/>
        <!-- Latest holds one Rates element; historical documents hold one per effective date. -->
        <xs:element name="Rates" type="RatesType" minOccurs="0" maxOccurs="unbounded">
          <xs:unique name="OneRatePerCurrency">
            <xs:selector xpath="*"/>
            <xs:field xpath="@currency"/>
          </xs:unique>
        </xs:element>
      </xs:sequence>
      <!-- A table re-expressed against another of its currencies (base=): what it was derived from. -->
      <xs:attribute name="derivedFromBaseCurrency" type="CurrencyCodeType" use="optional"/>
      <xs:attribute name="derivedFromQuoteType" type="QuoteTypeType" use="optional"/>
    </xs:complexType>
  </xs:element>
  <!-- GET /v1/Banks/{id}/Convert: an amount converted through the bank's table. -->
  <xs:simpleType name="AmountType">
    <xs:restriction base="xs:decimal">
      <xs:minInclusive value="0"/>
    </xs:restriction>
  </xs:simpleType>
  <xs:element name="Conversion">
    <xs:complexType>
      <xs:sequence>
        <xs:element name="Amount">
          <xs:complexType>
            <xs:attribute name="currency" type="CurrencyCodeType" use="required"/>
            <xs:attribute name="value" type="AmountType" use="required"/>
          </xs:complexType>
        </xs:element>
        <xs:element name="Result">
          <xs:complexType>
            <xs:attribute name="currency" type="CurrencyCodeType" use="required"/>
            <xs:attribute name="value" type="AmountType" use="required"/>
            <xs:attribute name="unrounded" type="AmountType" use="required"/>
            <xs:attribute name="unroundedExact" type="xs:boolean" use="required"/>
            <xs:attribute name="decimals" type="xs:nonNegativeInteger" use="required"/>
            <xs:attribute name="rounding" type="xs:string" use="required"/>
          </xs:complexType>
        </xs:element>
        <xs:element name="Formula" type="xs:string"/>
        <xs:element name="Figure" minOccurs="0" maxOccurs="2">
          <xs:complexType>
            <xs:attributeGroup ref="UnitFigureAttributes"/>
            <xs:attribute name="effectiveDate" type="xs:date" use="required"/>
          </xs:complexType>
        </xs:element>
      </xs:sequence>
      <xs:attribute name="bankId" type="BankIdType" use="required"/>
      <xs:attribute name="baseCurrency" type="CurrencyCodeType" use="required"/>
      <xs:attribute name="quoteType" type="QuoteTypeType" use="required"/>
      <xs:attribute name="date" type="xs:date" use="optional"/>
      <xs:attribute name="effectiveDate" type="xs:date" use="required"/>
    </xs:complexType>
  </xs:element>
  <!-- GET /v1/Banks/{id}/Corrections: every revision of a stored figure, both figures with their provenance. -->
  <xs:complexType name="CorrectedFigureType">
    <xs:attribute name="value" type="RateValueType" use="required"/>
    <xs:attribute name="unitMultiplier" type="UnitMultiplierType" use="optional"/>
    <xs:attribute name="storedAt" type="xs:dateTime" use="required"/>
    <xs:attribute name="source" type="xs:string" use="optional"/>
    <xs:attribute name="fetchedAt" type="xs:dateTime" use="optional"/>
    <xs:attributeGroup ref="ImportAttributes"/>
    <xs:attribute name="sha256" type="xs:hexBinary" use="optional"/>
  </xs:complexType>
  <xs:element name="Corrections">
    <xs:complexType>
      <xs:sequence>
        <xs:element name="Correction" minOccurs="0" maxOccurs="unbounded">
          <xs:complexType>
            <xs:sequence>
              <xs:element name="Previous" type="CorrectedFigureType"/>
              <xs:element name="Current" type="CorrectedFigureType"/>
            </xs:sequence>
            <xs:attribute name="effectiveDate" type="xs:date" use="required"/>
            <xs:attribute name="currency" type="CurrencyCodeType" use="required"/>
          </xs:complexType>
        </xs:element>
      </xs:sequence>
      <xs:attribute name="bankId" type="BankIdType" use="required"/>
      <xs:attributeGroup ref="DateRangeAttributes"/>
    </xs:complexType>
  </xs:element>
  <!-- GET /v1/Pairs/{BASE}/{QUOTE}/...: one pair as every bank prices it, per date, with the consensus. -->
  <xs:simpleType name="PairQuoteType">
    <xs:restriction base="xs:string">
      <xs:enumeration value="direct"/>
      <xs:enumeration value="inverse"/>
      <xs:enumeration value="cross"/>
    </xs:restriction>
  </xs:simpleType>
  <xs:complexType name="PairFigureType">
    <xs:sequence>
      <xs:element name="From" minOccurs="1" maxOccurs="2">
        <xs:complexType>
          <xs:attributeGroup ref="UnitFigureAttributes"/>
          <xs:attribute name="reads" type="xs:string" use="required"/>
        </xs:complexType>
      </xs:element>
    </xs:sequence>
    <xs:attribute name="bankId" type="BankIdType" use="required"/>
    <xs:attribute name="rate" type="RateValueType" use="required"/>
    <xs:attribute name="effectiveDate" type="xs:date" use="required"/>
    <xs:attribute name="publishedAt" type="xs:dateTime" use="optional"/>
    <xs:attribute name="quote" type="PairQuoteType" use="required"/>
    <xs:attribute name="derived" type="xs:boolean" use="required"/>
    <xs:attribute name="through" type="CurrencyCodeType" use="required"/>
    <xs:attribute name="digits" type="xs:positiveInteger" use="optional"/>
    <xs:attribute name="rounding" type="xs:string" use="optional"/>
    <xs:attribute name="sameDay" type="xs:boolean" use="required"/>
    <xs:attribute name="outlier" type="xs:boolean" use="required"/>
    <xs:attribute name="reason" type="xs:string" use="optional"/>
  </xs:complexType>
  <xs:complexType name="PairDayType">
    <xs:sequence>
      <xs:element name="Consensus" minOccurs="0">
        <xs:complexType>
          <xs:attribute name="date" type="xs:date" use="required"/>
          <xs:attribute name="banks" type="xs:positiveInteger" use="required"/>
          <xs:attribute name="median" type="RateValueType" use="required"/>
          <xs:attribute name="min" type="RateValueType" use="required"/>
          <xs:attribute name="max" type="RateValueType" use="required"/>
          <xs:attribute name="dispersion" type="xs:decimal" use="required"/>
          <xs:attribute name="band" type="xs:decimal" use="required"/>
          <xs:attribute name="minBanks" type="xs:positiveInteger" use="required"/>
        </xs:complexType>
      </xs:element>
      <xs:element name="Outlier" minOccurs="0" maxOccurs="unbounded">
        <xs:complexType>
          <xs:attribute name="bankId" type="BankIdType" use="required"/>
        </xs:complexType>
      </xs:element>
      <xs:element name="Figure" type="PairFigureType" minOccurs="0" maxOccurs="unbounded"/>
      <xs:element name="Unpriced" minOccurs="0" maxOccurs="unbounded">
        <xs:complexType>
          <xs:attribute name="bankId" type="BankIdType" use="required"/>
          <xs:attribute name="reason" type="xs:string" use="required"/>
        </xs:complexType>
      </xs:element>
    </xs:sequence>
    <xs:attribute name="date" type="xs:date" use="optional"/>
  </xs:complexType>
  <xs:element name="PairRates">
    <xs:complexType>
      <xs:sequence>
        <xs:element name="Day" type="PairDayType" minOccurs="0" maxOccurs="unbounded"/>
      </xs:sequence>
      <xs:attribute name="base" type="CurrencyCodeType" use="required"/>
      <xs:attribute name="quote" type="CurrencyCodeType" use="required"/>
      <xs:attribute name="from" type="xs:date" use="optional"/>
      <xs:attribute name="to" type="xs:date" use="optional"/>
      <xs:attribute name="asOf" type="xs:dateTime" use="optional"/>
      <xs:attributeGroup ref="DerivedDigitsAttributes"/>
    </xs:complexType>
  </xs:element>
  <!-- group=week|month|quarter|year on a daily range: per period and currency (or bank, for a pair), the mean. -->
  <xs:element name="Averages">
    <xs:complexType>
      <xs:sequence>
        <xs:element name="Average" minOccurs="0" maxOccurs="unbounded">
          <xs:complexType>
            <xs:attribute name="period" type="xs:string" use="required"/>
            <xs:attribute name="start" type="xs:date" use="required"/>
            <xs:attribute name="end" type="xs:date" use="required"/>
            <xs:attribute name="partial" type="xs:boolean" use="required"/>
            <xs:attribute name="currency" type="CurrencyCodeType" use="optional"/>
            <xs:attribute name="bankId" type="BankIdType" use="optional"/>
            <xs:attribute name="mean" type="RateValueType" use="required"/>
            <xs:attribute name="exact" type="xs:boolean" use="required"/>
            <xs:attribute name="sum" type="RateValueType" use="required"/>
            <xs:attribute name="days" type="xs:positiveInteger" use="required"/>
            <xs:attribute name="first" type="xs:date" use="required"/>
            <xs:attribute name="last" type="xs:date" use="required"/>
            <xs:attribute name="min" type="RateValueType" use="required"/>
            <xs:attribute name="max" type="RateValueType" use="required"/>
            <xs:attribute name="endOfPeriod" type="RateValueType" use="required"/>
          </xs:complexType>
        </xs:element>
      </xs:sequence>
      <xs:attribute name="bankId" type="BankIdType" use="optional"/>
      <xs:attribute name="baseCurrency" type="CurrencyCodeType" use="optional"/>
      <xs:attribute name="quoteType" type="QuoteTypeType" use="optional"/>
      <xs:attribute name="derivedFrom" type="CurrencyCodeType" use="optional"/>
      <xs:attribute name="base" type="CurrencyCodeType" use="optional"/>
      <xs:attribute name="quote" type="CurrencyCodeType" use="optional"/>
      <xs:attribute name="asOf" type="xs:dateTime" use="optional"/>
      <xs:attribute name="group" use="required">
        <xs:simpleType>
          <xs:restriction base="xs:string">
            <xs:enumeration value="week"/>
            <xs:enumeration value="month"/>
            <xs:enumeration value="quarter"/>
            <xs:enumeration value="year"/>
          </xs:restriction>
        </xs:simpleType>
      </xs:attribute>
      <xs:attributeGroup ref="DateRangeAttributes"/>
      <xs:attributeGroup ref="DerivedDigitsAttributes"/>
    </xs:complexType>
  </xs:element>
</xs:schema>
`;
