import type { FastifyInstance } from "fastify";
import { LOCAL_INGEST_KEY } from "../../server/auth/serviceKeys";
import type { UsageRecordInput } from "../../src/resources/usage";

/** Usage records as the network's mediation sends them: POST /usage-records/batch with local mode's API key. */
export function sendNetworkUsage(app: FastifyInstance, records: UsageRecordInput[], operator = "ATT") {
  return app.inject({
    method: "POST",
    url: "/api/v1/usage-records/batch",
    headers: { authorization: `ApiKey ${LOCAL_INGEST_KEY}`, "x-operator": operator },
    payload: { records },
  });
}
