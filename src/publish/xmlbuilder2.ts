// xmlbuilder2, as this project loads it: the XML renderer imports it from here, never from
// "xmlbuilder2". The build replaces this file's output with one bundle of the installed package
// (scripts/bundle-vendor.mjs): loading it took 0.14 s as the package's files, 0.07 s as one module. From
// source, it is the package itself.
export { create } from "xmlbuilder2";
