// exceljs, as this project loads it: the publisher imports it from here (at its first workbook), never
// from "exceljs". The package is CommonJS spread over some 150 files and its dependencies' hundreds
// more: finding and reading them was half of the 0.5 s it took to load. The build replaces this file's
// output with one bundle of the installed package (scripts/bundle-vendor.mjs): 0.24 s. From source, it is
// the package itself.
export { default } from "exceljs";
