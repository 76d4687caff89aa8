export { default } from "./admin/src/index.js";
