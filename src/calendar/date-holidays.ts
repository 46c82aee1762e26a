// date-holidays, as this project loads it: src/calendar/calendar.ts imports it from here, never from
// "date-holidays". The build replaces this file's output with one bundle of the installed package
// (scripts/bundle-vendor.mjs): the same code, loaded as one module instead of about a hundred (its
// calendars' astronomy included). From source, it is the package itself.
export { default } from "date-holidays";
