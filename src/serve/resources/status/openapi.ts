// `GET /v1/status` in the OpenAPI document: every bank's scheduling state and which instance runs
// the scheduler (one of several `exrates start` on a shared PostgreSQL database; src/schedule/leader.ts).
import type { OpenApiParts } from "../openapi-parts.js";

export function statusPaths(parts: OpenApiParts): Record<string, unknown> {
  const { bearerErrors, err, scope } = parts;
  return {
    "/v1/status": {
      get: {
        operationId: "getStatus",
        summary: "Every bank's scheduling state, and which instance schedules",
        description:
          "Served by `exrates start` (404 from `exrates serve`, which runs no scheduler). Cache-Control: no-store.",
        tags: ["status"],
        security: [{ oauth2: [scope] }],
        responses: {
          "200": {
            description: "The banks' rows and the scheduler's leader.",
            content: { "application/json": { schema: { $ref: "#/components/schemas/Status" } } },
          },
          "401": bearerErrors["401"],
          "403": bearerErrors["403"],
          "404": err("No scheduler runs in this process (`exrates serve`)."),
        },
      },
    },
  };
}

export const statusSchema = {
  type: "object",
  required: ["banks", "scheduler"],
  properties: {
    banks: {
      type: "array",
      description: "One row per known bank (docs/API.md lists the fields).",
      items: {
        type: "object",
        required: ["id", "name", "scheduled", "state", "summary"],
        properties: {
          id: { type: "string" },
          name: { type: "string" },
          scheduled: { type: "boolean" },
          state: { type: "string" },
          summary: { type: "string" },
          frequency: { type: "string", enum: ["Daily", "Weekly", "Monthly", "Quarterly"] },
          newestDate: { type: ["string", "null"] },
          nextRunAt: { type: ["string", "null"] },
        },
      },
    },
    scheduler: {
      type: "object",
      description:
        "Which instance schedules. With SQLite the one daemon always leads; on a shared PostgreSQL database one `exrates start` holds the scheduler's lock and the others stand by.",
      required: ["instance", "leader", "leaderInstance"],
      properties: {
        instance: { type: "string", description: "This instance's id (EXRATES_INSTANCE_ID, else host-pid)." },
        leader: { type: "boolean", description: "Whether this instance schedules and ingests." },
        leaderInstance: {
          type: ["string", "null"],
          description: "The instance that schedules; null while none does (a leader died, no standby took over yet).",
        },
      },
    },
  },
} as const;
