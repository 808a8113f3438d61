// The servers the e2e suite starts (playwright.config.ts) and the specs talk to: the app on the offline model, and a
// second app behind the stub model (model-stub.ts) for the specs that need a model that misbehaves.
export const PORT = Number(process.env.E2E_PORT ?? 3210);
export const BASE_URL = `http://localhost:${PORT}`;
export const STUB_APP_URL = `http://localhost:${PORT + 1}`;
export const MODEL_STUB_URL = `http://127.0.0.1:${PORT + 2}`;
