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
  </xs:complexType>
  <xs:complexType name="RatesType">
    <xs:sequence>
      <xs:element name="Rate" type="RateType" minOccurs="0" maxOccurs="unbounded"/>
    </xs:sequence>
    <xs:attribute name="effectiveDate" type="xs:date" use="required"/>
  </xs:complexType>
  <xs:element name="ExchangeRates">
    <xs:complexType>
      <xs:sequence>
        <xs:element name="BankId" type="BankIdType"/>
        <xs:element name="BaseCurrency" type="CurrencyCodeType"/>
        <xs:element name="QuoteType" type="QuoteTypeType"/>
        <!-- Latest holds one Rates element; historical documents hold one per effective date. -->
        <xs:element name="Rates" type="RatesType" minOccurs="0" maxOccurs="unbounded">
          <xs:unique name="OneRatePerCurrency">
            <xs:selector xpath="*"/>
            <xs:field xpath="@currency"/>
          </xs:unique>
        </xs:element>
      </xs:sequence>
    </xs:complexType>
  </xs:element>
</xs:schema>
`;
