// main.tsx imports this first: its body runs before the modules it imports after it are evaluated.
import { startEarly } from "./startup.ts";

startEarly();
