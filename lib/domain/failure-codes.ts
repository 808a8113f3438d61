// The catalogue of every failure a user or client can see (docs/failure-codes.md). One place, stable codes;
// docs/failure-codes.md is generated from it and a unit test keeps the two in step.

export type FailureArea =
  | "INPUT"
  | "AUTH"
  | "ACCESS"
  | "POLICY"
  | "REVIEW"
  | "GRAPH"
  | "EVIDENCE"
  | "MODEL"
  | "CITE"
  | "AUDIT"
  | "IMPORT"
  | "SYS"
  | "GROUND"
  | "EVAL"
  | "INGEST"
  | "PLAYBOOK"
  | "THREAD";

export interface FailureDefinition {
  /** HTTP status a route answers with. */
  status: number;
  /** Short message safe to show to anyone. */
  message: string;
  /** When it happens and what to do, for operators and the docs. */
  description: string;
}

export const FAILURES = {
  "CG-INPUT-001": {
    status: 400,
    message: "The request is not valid.",
    description: "The body is not JSON or does not match the expected fields; details name the offending fields.",
  },
  "CG-INPUT-002": { status: 400, message: "The question is empty.", description: "A question must contain text after trimming." },
  "CG-INPUT-003": { status: 400, message: "The question is too long.", description: "Questions are limited to 2,000 characters." },
  "CG-INPUT-004": {
    status: 400,
    message: "The question contains control characters.",
    description: "Control characters (other than newline and tab) are rejected rather than silently stripped.",
  },
  "CG-INPUT-005": {
    status: 400,
    message: "A parameter is out of range.",
    description: "A limit, page size or identifier is outside what the API accepts.",
  },
  "CG-INPUT-006": {
    status: 409,
    message: "Cannot be used.",
    description:
      "An admin form names an e-mail address or license id that is taken; neither the message nor the issue says by which tenant.",
  },
  "CG-INPUT-007": {
    status: 409,
    message: "You cannot remove your own admin access.",
    description: "An admin tried to deactivate themselves or drop their own admin role; another admin of the tenant must do it.",
  },
  "CG-INPUT-008": {
    status: 400,
    message: "The output file cannot be written.",
    description:
      "A command's --out names a folder that does not exist or cannot be written, or names a folder itself; the message says which. It is checked before the command does its work, so nothing was run or recorded.",
  },

  "CG-AUTH-001": { status: 401, message: "Sign-in required.", description: "No session cookie and no Bearer token were sent." },
  "CG-AUTH-002": {
    status: 401,
    message: "The credentials are invalid or expired.",
    description: "The session or API token is unknown, expired or revoked.",
  },
  "CG-AUTH-003": {
    status: 403,
    message: "This account is deactivated.",
    description: "An admin deactivated the account; every request is refused from the next one on.",
  },
  "CG-AUTH-004": {
    status: 429,
    message: "Too many attempts. Try again later.",
    description: "Sign-in attempts for this account or address exceeded the limit; the password is not checked while locked.",
  },
  "CG-AUTH-005": {
    status: 403,
    message: "Cross-origin request rejected.",
    description: "A state-changing request came with a foreign, null or missing Origin.",
  },
  "CG-AUTH-006": {
    status: 401,
    message: "Invalid email or password.",
    description: "Generic sign-in failure; does not say which part was wrong.",
  },

  "CG-ACCESS-001": {
    status: 404,
    message: "Case not found or not accessible.",
    description:
      "The case does not exist, belongs to another tenant, or the user is not an active member. The three are indistinguishable on purpose.",
  },
  "CG-ACCESS-002": {
    status: 403,
    message: "Your role does not allow this.",
    description: "The action needs a role (investigator, supervisor, admin) the user does not hold.",
  },
  "CG-ACCESS-003": {
    status: 404,
    message: "Not found.",
    description: "The object (user, token, ledger entry…) does not exist in the caller's tenant.",
  },
  "CG-ACCESS-004": {
    status: 403,
    message: "This is managed by operators.",
    description:
      "Shared licenses (from imported bundles, used by several tenants) are changed by operators through import, not by a tenant admin.",
  },
  "CG-ACCESS-005": {
    status: 403,
    message: "You cannot change your own clearance, need-to-know, roles or case memberships.",
    description:
      "Separation of duties: another admin of the tenant makes changes to an admin's own permissions, and the ledger names both.",
  },
  "CG-ACCESS-006": {
    status: 403,
    message: "You cannot grant a clearance above your own.",
    description: "An admin may set a clearance only up to the one they hold; an operator (CLI) sets higher ones.",
  },

  "CG-POLICY-080": {
    status: 400,
    message: "The policies are not valid.",
    description:
      "policies.jsonl (or the policy editor) has a line that is not JSON or does not match the Policy schema; each issue names its line and JSON path. Nothing was compiled.",
  },
  "CG-POLICY-081": {
    status: 400,
    message: "A policy names a variable Casegraph cannot bind.",
    description:
      "A condition or action names something that is neither a request fact, a built-in answer fact nor an extractor the policies declare, or uses it with the wrong type or values; each issue names its line.",
  },
  "CG-POLICY-082": {
    status: 400,
    message: "The policy bundle is not valid JSON.",
    description: "compiled_policy_bundle.json could not be parsed.",
  },
  "CG-POLICY-083": {
    status: 400,
    message: "The policy bundle does not match the bundle schema.",
    description:
      "A field of compiled_policy_bundle.json is missing or has the wrong type; the issues give JSON paths. Recompile it with `casegraph policy compile`.",
  },
  "CG-POLICY-084": {
    status: 400,
    message: "The policy bundle's SHA-256 does not match its content.",
    description: "bundle_metadata.sha256 is not the hash of the bundle: it was edited after compiling. Recompile it.",
  },
  "CG-POLICY-085": {
    status: 400,
    message: "The policy bundle refers to something it does not hold.",
    description:
      "Referential integrity failed when the bundle was loaded: a rule, path, constraint, conflict, dominance rule or escalation names an unknown rule, policy or variable, or an extractor is not a valid regular expression.",
  },
  "CG-POLICY-086": {
    status: 503,
    message: "The policy solver is unavailable.",
    description:
      "Z3 (the z3-solver package) failed to load or could not decide a rule. Answers are not delivered unchecked while a bundle is active: the check counts as failed.",
  },
  "CG-POLICY-087": {
    status: 503,
    message: "Policy extraction needs a generative model.",
    description:
      "`casegraph policy extract` runs a multi-pass extractor with the configured generative model; the offline model cannot do it. Set LLM_PROVIDER (and its model settings), or write policies in the admin editor.",
  },
  "CG-POLICY-088": {
    status: 400,
    message: "The policy document cannot be read.",
    description: "The file given to `policy extract` is missing, empty, or not .md, .txt, .html, .pdf or .docx.",
  },
  "CG-POLICY-089": {
    status: 404,
    message: "No such policy bundle.",
    description: "The bundle (by SHA-256) is not stored for this tenant.",
  },
  "CG-POLICY-090": {
    status: 502,
    message: "The model's policy extraction was unusable.",
    description: "The generative model returned output that does not match the Policy schema, also after one retry.",
  },

  "CG-REVIEW-001": {
    status: 404,
    message: "No such review.",
    description:
      "The held answer does not exist in the supervisor's tenant (or was already decided and the request asks for pending ones).",
  },
  "CG-REVIEW-002": {
    status: 409,
    message: "This review has already been decided.",
    description: "A held answer is approved or rejected once; the first decision stands and is in the ledger.",
  },
  "CG-REVIEW-003": {
    status: 400,
    message: "A note is required.",
    description:
      "Approving a held answer needs a note saying why it may be delivered (1–2,000 characters); rejecting takes an optional one.",
  },
  "CG-REVIEW-005": {
    status: 503,
    message: "The answer was held for review but could not be stored.",
    description:
      "The answer was held (the answer policies escalated it, or it rests on expired evidence) and the review queue could not be written; nothing of the draft was delivered. Ask again when the database answers.",
  },
  "CG-REVIEW-006": {
    status: 409,
    message: "The held answer cites evidence revoked since; it cannot be released.",
    description:
      "A revocation is final: a held draft citing an item an admin has revoked since it was held is never delivered, by a supervisor's approval or an operator override. Reject it; the asker can ask again.",
  },
  "CG-REVIEW-004": {
    status: 403,
    message: "You cannot review your own question.",
    description:
      "Separation of duties: a supervisor who asked the question cannot release or reject its held answer; another supervisor of the tenant does.",
  },

  "CG-GRAPH-001": {
    status: 503,
    message: "The case graph is unavailable.",
    description: "The graph store (PostgreSQL or Neo4j) did not answer in time.",
  },
  "CG-GRAPH-002": {
    status: 500,
    message: "The case graph query failed.",
    description: "The graph store answered with an error (or NEO4J_URI / NEO4J_DATABASE name no usable Neo4j database).",
  },
  "CG-GRAPH-003": {
    status: 503,
    message: "The case graph store refused the credentials.",
    description:
      "Neo4j rejected NEO4J_USER / NEO4J_PASSWORD (or rate-limited the sign-in). Fix the credentials; nothing was read or written.",
  },
  "CG-GRAPH-004": {
    status: 503,
    message: "The case graph could not be written to Neo4j; the import was rolled back.",
    description:
      "With NEO4J_URI set, an import writes the graph to Neo4j and the rest to PostgreSQL as one unit: Neo4j failed, so PostgreSQL was left as it was and the Neo4j side was restored from it. Run the import again when Neo4j answers; if the restore also failed, `casegraph graph sync --case <id>` rebuilds the case graph from PostgreSQL.",
  },
  "CG-GRAPH-005": {
    status: 503,
    message: "The case graph in Neo4j is not loaded or not in sync.",
    description:
      "Neo4j holds no graph for this case (it was imported before NEO4J_URI was set, or Neo4j was reset), or a write to it was interrupted. Answers are refused rather than given from a partial graph; run `casegraph graph sync --case <id>` (or `--all`).",
  },

  "CG-EVIDENCE-001": { status: 503, message: "The evidence store is unavailable.", description: "Evidence search failed or timed out." },

  "CG-MODEL-001": {
    status: 503,
    message: "The language model is unavailable.",
    description: "The configured model did not answer (network, timeout, provider error).",
  },
  "CG-MODEL-002": {
    status: 502,
    message: "The language model returned unusable output.",
    description: "Output was not valid structured JSON, also after one stricter retry.",
  },
  "CG-MODEL-003": {
    status: 503,
    message: "Answering is disabled by an operator.",
    description: "A kill switch is engaged for the model or the answer pipeline.",
  },

  "CG-CITE-001": {
    status: 200,
    message: "Unable to generate citation-backed answer.",
    description:
      "The model's answer had factual content with no citation to evidence it was shown; the answer is withheld (responseType unable).",
  },

  "CG-AUDIT-001": {
    status: 500,
    message: "The audit record could not be written; the answer was withheld.",
    description: "No answer leaves the service without its ledger entry.",
  },
  "CG-AUDIT-002": {
    status: 409,
    message: "The ledger chain does not verify.",
    description:
      "A stored entry's hash or link, a stored Merkle subtree hash or a signed checkpoint does not match what the entries recompute to, or the database's append-only protection is missing; the first bad sequence number is reported.",
  },
  "CG-AUDIT-003": {
    status: 503,
    message: "The ledger signing key is missing or invalid.",
    description:
      "Checkpoints are signed with Ed25519. Set CASEGRAPH_LEDGER_SIGNING_KEY (PEM or base64 PKCS#8; `casegraph audit keygen` prints one); outside production one is generated in the data folder on first use; in production the server does not start without it.",
  },
  "CG-AUDIT-004": {
    status: 422,
    message: "The proof does not verify.",
    description:
      "An exported inclusion or consistency proof failed a check (entry hash, Merkle path, checkpoint signature or key); the report names the failed check.",
  },
  "CG-AUDIT-010": {
    status: 409,
    message: "No signed checkpoint covers this yet.",
    description:
      "Reading a proof or a checkpoint never signs one (a GET never writes). Sign one with POST /api/audit/checkpoint (supervisors and admins), `casegraph audit checkpoint`, or wait for the next periodic checkpoint.",
  },
  "CG-AUDIT-011": {
    status: 409,
    message: "The ledger is shorter than a signed checkpoint it knows of.",
    description:
      "Entries were removed from the end of the ledger (truncation): a signed checkpoint kept outside the ledger tables (the data folder's witness for this database — ledger-checkpoint.json for the embedded one, ledger-checkpoint.<host>-<port>-<name>.<hash>.json for PostgreSQL —, or a file given to `audit verify --checkpoint`) says the ledger once held more entries than it holds now. The error names the checkpoint.",
  },
  "CG-AUDIT-012": {
    status: 400,
    message: "The checkpoint file cannot be read.",
    description:
      "`audit verify --checkpoint <file>` takes a signed checkpoint as saved from GET /api/audit/checkpoint, the data folder's ledger-checkpoint files, or a proof file; the file is missing, not JSON, or holds no signed checkpoint. The data folder's witness for one database is also refused when it names another database (a file copied into its place).",
  },

  "CG-IMPORT-001": { status: 400, message: "The file is not valid JSON.", description: "The bundle could not be parsed." },
  "CG-IMPORT-002": { status: 400, message: "Unsupported bundle format.", description: "`format` must be casegraph.workspace/v1." },
  "CG-IMPORT-003": {
    status: 400,
    message: "A field is missing or has the wrong type.",
    description: "Schema violation at the reported JSON path.",
  },
  "CG-IMPORT-004": {
    status: 400,
    message: "Unknown marking.",
    description:
      "A classification is not one of PUBLIC, CUI, CONFIDENTIAL, SECRET, TOP_SECRET, TS_SCI (or an accepted alias). Never defaulted to PUBLIC.",
  },
  "CG-IMPORT-005": {
    status: 400,
    message: "Duplicate identifier.",
    description: "Two items of the same kind share an id (or email) within their scope.",
  },
  "CG-IMPORT-006": {
    status: 400,
    message: "Reference to a missing node.",
    description: "An edge endpoint or an evidence link names a node that is not in the case.",
  },
  "CG-IMPORT-007": {
    status: 400,
    message: "Unknown license.",
    description: "Evidence names a license that is neither in the bundle nor in the database.",
  },
  "CG-IMPORT-008": {
    status: 400,
    message: "Unknown tenant.",
    description: "A user, case or evidence item names a tenant that is neither in the bundle nor in the database.",
  },
  "CG-IMPORT-009": {
    status: 400,
    message: "Unknown case member.",
    description: "A case lists a member email that is not a user in the bundle or the database, or belongs to another tenant.",
  },
  "CG-IMPORT-010": { status: 400, message: "Invalid date.", description: "`collectedAt` must be an ISO-8601 timestamp." },
  "CG-IMPORT-011": { status: 400, message: "Empty content.", description: "Evidence content, names or ids must not be empty." },
  "CG-IMPORT-012": {
    status: 400,
    message: "Unknown role or license use.",
    description: "Roles are investigator, supervisor, admin; uses are INGEST, ANALYZE, INTERNAL_USE, EXPORT, FULL_ACCESS.",
  },
  "CG-IMPORT-013": {
    status: 409,
    message: "The bundle conflicts with stored data.",
    description: "An id already exists under another tenant or case.",
  },
  "CG-IMPORT-014": { status: 400, message: "The bundle file cannot be read.", description: "File missing or unreadable." },

  // Grounding controls (issue 15, seed 004): evidence lifecycle, kill switches, operator overrides, compliance artifacts.
  "CG-GROUND-001": {
    status: 400,
    message: "This evidence type is not accepted by the tenant.",
    description:
      "An imported evidence item's `type` is not in its tenant's list of accepted types (`evidenceTypes` on the tenant; an empty list accepts any). The issue names the item's JSON path.",
  },
  "CG-GROUND-002": {
    status: 400,
    message: "Evidence carries a forged provenance block or identity marker.",
    description:
      "Imported evidence text contains `### Execution Provenance`, the header of Casegraph's own answer provenance footer, or an identity-injection marker (`[[IDENTITY_FACTS_READ_ONLY]]`). Such an item is refused, never cleaned: its source cannot be trusted (footer spoofing).",
  },
  "CG-GROUND-003": {
    status: 409,
    message: "Duplicate evidence content stored once.",
    description:
      "Two evidence items of one case have the same content (SHA-256 after Unicode NFC and whitespace collapsing); the later one is not stored and the import reports it with its JSON path. Not an error.",
  },
  "CG-GROUND-004": {
    status: 400,
    message: "Invalid evidence lifecycle setting.",
    description:
      "`validUntil` is not an ISO-8601 timestamp, or a tenant's `evidenceMaxAgeDays` is not a map of type to a positive number of days.",
  },
  "CG-GROUND-005": {
    status: 404,
    message: "Evidence not found.",
    description: "No evidence item with that id in that case (of the admin's tenant).",
  },
  "CG-GROUND-006": {
    status: 400,
    message: "A revocation needs a reason.",
    description:
      "`evidence revoke` and the admin page need a non-empty reason (at most 500 characters): withdrawn by the source, found unreliable, court order…",
  },
  "CG-GROUND-007": {
    status: 409,
    message: "The evidence is already revoked.",
    description: "A revocation is final; the item stays revoked with its first reason.",
  },
  "CG-GROUND-010": {
    status: 400,
    message: "Unknown kill switch.",
    description:
      "Kill switches are DISABLE_ANSWER_REUSE, DISABLE_MODEL and DISABLE_EXPORTS, set `on` or `off`. Grounding itself cannot be switched off.",
  },
  "CG-GROUND-011": {
    status: 503,
    message: "The model is switched off for this tenant.",
    description:
      "DISABLE_MODEL is on (for the tenant or the whole deployment): the answer is `unable` without calling the model; retrieval, unknowns and the audit entry still happen.",
  },
  "CG-GROUND-012": {
    status: 503,
    message: "Exports are switched off for this tenant.",
    description:
      "DISABLE_EXPORTS is on (for the tenant or the whole deployment): workspace and audit exports are refused until an admin or operator switches it off.",
  },
  "CG-GROUND-013": {
    status: 200,
    message: "The evidence that would answer this has expired; a supervisor must release the answer.",
    description:
      "No active evidence answered the question, but evidence the asker may see that has expired (past its `validUntil`, or older than its tenant's `evidenceMaxAgeDays` for its type; never revoked) did. An answer was drafted from it, checked like any other, and held in the review queue (`responseType` `escalated`, `heldFor` `expired_evidence`): nothing of it is shown until a supervisor approves it or an operator override token releases it. Once released it is delivered marked as citing expired evidence, and by whom it was released. Not an error.",
  },
  "CG-GROUND-020": {
    status: 400,
    message: "The override token cannot be read.",
    description:
      "An operator override token is `<base64url payload>.<base64url Ed25519 signature>` with request, action, expiry and nonce; this one is malformed.",
  },
  "CG-GROUND-021": {
    status: 403,
    message: "The override token's signature is not valid.",
    description: "The token was not signed by a key in CASEGRAPH_OVERRIDE_PUBLIC_KEYS, or was altered after signing.",
  },
  "CG-GROUND-022": {
    status: 403,
    message: "The override token has expired.",
    description: "Its `expiresAt` has passed; issue a new one (`casegraph override issue`).",
  },
  "CG-GROUND-023": {
    status: 409,
    message: "The override token was already used.",
    description: "Each token's nonce is accepted once (replay protection); issue a new token for another release.",
  },
  "CG-GROUND-024": {
    status: 403,
    message: "The override token does not cover this request.",
    description: "The token names another request or review id, or another action, than the one it was applied to.",
  },
  "CG-GROUND-025": {
    status: 503,
    message: "Operator overrides are not configured.",
    description: "CASEGRAPH_OVERRIDE_PUBLIC_KEYS holds no Ed25519 public key, so no token can be verified.",
  },
  "CG-GROUND-026": {
    status: 409,
    message: "Nothing is held for this request.",
    description:
      "The request or review id names no pending review (no answer held — escalated by the answer policies or drafted from expired evidence), or it was already released.",
  },
  "CG-GROUND-027": {
    status: 400,
    message: "The override signing key cannot be read.",
    description: "`override issue --key <file>` needs an Ed25519 private key in PEM (PKCS#8).",
  },
  "CG-GROUND-030": {
    status: 404,
    message: "No answer with this request id.",
    description:
      "The compliance artifact covers one answered request of the supervisor's tenant; this request id has no ledger entry there.",
  },
  "CG-GROUND-031": {
    status: 422,
    message: "The compliance artifact does not verify.",
    description:
      "`audit verify-artifact` found something that does not hold (the signature, the inclusion proof, the entry hash, the payload, the provenance hash or the artifact's own digest); the message names the first one.",
  },
  "CG-GROUND-032": {
    status: 400,
    message: "The compliance artifact file cannot be read.",
    description: "The file is missing, not JSON, or not a casegraph.artifact/v1 document.",
  },

  // Evidence from documents (issue 17): each refusal names the file; nothing of that document is written.
  "CG-INGEST-001": {
    status: 422,
    message: "The document cannot be read.",
    description:
      "The file's parser failed (a damaged or truncated PDF, a DOCX that is not a word-processing document, malformed e-mail or CSV); the error names the file. Nothing of it was stored; the rest of the batch went on.",
  },
  "CG-INGEST-002": {
    status: 413,
    message: "The document is larger than the size limit.",
    description:
      "Files over CASEGRAPH_INGEST_MAX_MB (default 50 MB) are refused before they are read, and so are PDFs over CASEGRAPH_INGEST_MAX_PAGES pages.",
  },
  "CG-INGEST-003": {
    status: 415,
    message: "The document's type is not supported.",
    description:
      "The type is decided by the file's content, not its name: PDF, DOCX, HTML, Markdown, plain text (UTF-8), e-mail (.eml) and CSV call records are read; anything else (images, archives, executables, other office formats) is refused with the type found.",
  },
  "CG-INGEST-004": {
    status: 422,
    message: "The document expands beyond the limit (zip bomb).",
    description:
      "A DOCX is a ZIP archive; one whose parts would inflate past the expansion limit (or with an absurd compression ratio or part count) is refused before any part is inflated in full.",
  },
  "CG-INGEST-005": {
    status: 422,
    message: "The PDF is encrypted.",
    description: "Encrypted or password-protected PDFs are not read; ask the source for an unencrypted copy.",
  },
  "CG-INGEST-006": {
    status: 415,
    message: "The file is not what its name says.",
    description:
      "The extension names one type and the content is another (a .pdf that is a ZIP, a .docx that is text, a .txt that is a PDF); rename it or get the right file.",
  },
  "CG-INGEST-007": {
    status: 422,
    message: "The document has no readable text.",
    description:
      "No page of the PDF has a text layer (scanned pages are not read: there is no OCR), or the document is empty. Pages without text in an otherwise readable PDF are listed as warnings instead.",
  },
  "CG-INGEST-008": {
    status: 400,
    message: "The markings are not valid.",
    description:
      "The classification is not one of the six (or an alias), a need-to-know tag is blank, the license is not one the tenant may use, the collection time is not ISO-8601, or the evidence type is not accepted by the tenant; the issue names the field.",
  },
  "CG-INGEST-009": {
    status: 403,
    message: "You may not add evidence to this case.",
    description:
      "Adding evidence needs the `ingest` permission on the case membership (an admin grants it on the memberships page), or the supervisor or admin role in the case's tenant.",
  },
  "CG-INGEST-010": {
    status: 400,
    message: "The upload is not valid.",
    description:
      "POST /api/cases/{caseId}/documents takes multipart/form-data with one or more `file` parts (at most 20) and optional marking fields; the body was something else.",
  },
  "CG-INGEST-011": {
    status: 503,
    message: "The document could not be stored; nothing of it was written.",
    description:
      "Writing the document's evidence, graph items and ledger entry failed and was rolled back (with Neo4j configured, its graph was restored from PostgreSQL). Try again; the rest of the batch went on.",
  },
  "CG-INGEST-012": {
    status: 422,
    message: "The CSV is not a call-record file.",
    description:
      "CSV files are read as call-detail records: a header naming the caller (caller, from, a_number, calling), the callee (callee, to, b_number, called) and the time (time, start, timestamp, date), and optionally the duration (duration, seconds); the error names the missing column or the first bad row.",
  },
  "CG-INGEST-013": {
    status: 422,
    message: "The document carries hostile content.",
    description:
      "An XML part declares a DTD or entities (XXE), or the text carries a forged provenance block; such a file is refused, never cleaned.",
  },
  "CG-INGEST-014": {
    status: 404,
    message: "Document not found.",
    description: "No document with that id in the case, or its markings do not allow you to see it (the two look the same).",
  },
  "CG-INGEST-015": {
    status: 404,
    message: "No such proposal.",
    description: "The graph proposal does not exist in the case, or its markings do not allow you to see it (the two look the same).",
  },
  "CG-INGEST-016": {
    status: 409,
    message: "The proposal cannot be accepted as it stands.",
    description:
      "It was already decided, or it is an edge whose endpoint is another proposal not accepted yet (accept the node first) or a node no longer in the case.",
  },
  "CG-THREAD-001": {
    status: 404,
    message: "Thread not found.",
    description:
      "A question, rename or close named a thread that does not exist, belongs to another user, or belongs to another case. The three are indistinguishable on purpose; start a new thread (send no threadId).",
  },
  "CG-THREAD-002": {
    status: 409,
    message: "This thread is closed.",
    description: "The asker closed this thread; it can be read but not continued. Ask without a threadId to start a new one.",
  },

  "CG-EVAL-001": {
    status: 400,
    message: "The evaluation questions cannot be read.",
    description:
      "`casegraph eval` takes JSON Lines: one { id, user, case, question, kind, gold, canaries?, thread? } per line, kind one of answerable, unanswerable, action, restricted, injection; the lines of one thread share its user and case; the error names each bad line.",
  },
  "CG-PLAYBOOK-001": {
    status: 400,
    message: "The playbook is not valid.",
    description:
      "A playbook in a bundle's `playbooks` section or the admin form is missing a field, has an unknown required authority (none, supervisor_approval, subpoena, warrant, court_order), marking or risk level (low, medium, high), or names an unknown tenant; each issue gives its JSON path or field.",
  },
  "CG-PLAYBOOK-002": {
    status: 404,
    message: "No such playbook.",
    description:
      "The playbook does not exist, is retired, belongs to another tenant, or does not fit the case, your clearance, need-to-know, legal authority or the tenant's risk tolerance. The cases are indistinguishable on purpose.",
  },
  "CG-PLAYBOOK-003": {
    status: 409,
    message: "This playbook id is taken.",
    description:
      "A tenant's playbook may not use the id of a shared playbook (and a shared one not the id of a tenant's): the model names playbooks by id alone.",
  },
  "CG-PLAYBOOK-004": {
    status: 409,
    message: "This step is already proposed for the case.",
    description: "One open proposal per playbook and case; wait for a supervisor's decision on the one there is.",
  },
  "CG-PLAYBOOK-005": {
    status: 404,
    message: "No such proposal.",
    description: "The proposal does not exist in your tenant, or its playbook is outside your clearance or need-to-know.",
  },
  "CG-PLAYBOOK-006": {
    status: 403,
    message: "You cannot decide your own proposal.",
    description: "Separation of duties: another supervisor of the tenant approves or rejects a step you proposed.",
  },
  "CG-PLAYBOOK-007": {
    status: 409,
    message: "This proposal has already been decided.",
    description: "A proposal is approved or rejected once; the first decision stands and is in the ledger.",
  },
  "CG-PLAYBOOK-008": {
    status: 400,
    message: "A note is required.",
    description:
      "Approving or rejecting a proposed step needs a note (1–2,000 characters); it is kept with the decision, its SHA-256 in the ledger.",
  },
  "CG-PLAYBOOK-009": {
    status: 403,
    message: "You do not hold the legal authority this step requires.",
    description:
      "Approving a proposed step authorises it: the approver must hold the legal process its playbook requires (subpoena, warrant, court order). Another supervisor who holds it can approve; anyone may reject.",
  },
  "CG-PLAYBOOK-010": {
    status: 409,
    message: "This playbook has been retired; the step cannot be approved.",
    description:
      "The playbook a pending proposal names was retired after it was proposed. Reject the proposal, or restore the playbook first.",
  },

  "CG-SYS-001": {
    status: 503,
    message: "The database is unavailable.",
    description: "PostgreSQL or the embedded database did not answer.",
  },
  "CG-SYS-002": {
    status: 500,
    message: "Internal error.",
    description: "An unexpected failure; details are in the server log, never in the response.",
  },
  "CG-SYS-003": {
    status: 500,
    message: "The server is misconfigured.",
    description: "An environment variable is missing or invalid; the log names it.",
  },
} as const satisfies Record<string, FailureDefinition>;

export type FailureCode = keyof typeof FAILURES;

export interface FailureIssue {
  /** JSON path into the input, e.g. `$.cases[0].evidence[3].classification`. */
  path?: string;
  message: string;
  code?: FailureCode;
}

/** The one error type that crosses layers. Its JSON never carries a stack, SQL or driver text. */
export class CasegraphError extends Error {
  readonly code: FailureCode;
  readonly issues: FailureIssue[];

  constructor(code: FailureCode, detail?: string, issues: FailureIssue[] = [], options?: { cause?: unknown }) {
    super(detail ?? FAILURES[code].message, options);
    this.name = "CasegraphError";
    this.code = code;
    this.issues = issues;
  }

  get status(): number {
    return FAILURES[this.code].status;
  }

  toJSON() {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.issues.length ? { issues: this.issues } : {}),
      },
    };
  }
}

/** The error of a failed outcome's body, as a CasegraphError (an unknown code is CG-SYS-002): what server actions throw. */
export function errorOfBody(error: { code: string; message: string }): CasegraphError {
  return new CasegraphError((error.code in FAILURES ? error.code : "CG-SYS-002") as FailureCode, error.message);
}

/** Any thrown value → a CasegraphError safe to show; unknown failures become CG-SYS-002. */
/** Runs `fn`; anything it throws becomes `code` (the cause kept), so a store's driver errors never leak as such. */
export async function failingAs<T>(code: FailureCode, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw new CasegraphError(code, undefined, [], { cause: err });
  }
}

export function asCasegraphError(err: unknown, fallback: FailureCode = "CG-SYS-002"): CasegraphError {
  if (err instanceof CasegraphError) return err;
  return new CasegraphError(fallback, undefined, [], { cause: err });
}

export function failureAreaOf(code: FailureCode): FailureArea {
  return code.split("-")[1] as FailureArea;
}
