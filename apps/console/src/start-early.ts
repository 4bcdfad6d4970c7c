// Inlined in index.html by vite.config.ts (inlineStartEarly) and run before the console's code
// arrives. It shares no module instance with the console: the responses pass through a global.
import { startEarly } from "./startup.ts";

declare const __VIEW_CODE__: string[];

startEarly(__VIEW_CODE__);
