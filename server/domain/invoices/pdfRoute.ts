import { eq } from "drizzle-orm";
import { z } from "zod";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { idParamsSchema } from "../../routes/common";
import { invoicesResource } from "#resources/invoices";
import { operators } from "../../db/schema";
import { localeOf } from "../../i18n/requestLocale";
import { notFound } from "../../errors";
import { words } from "../../i18n/words";
import { findRecordRow } from "../../engine/records";
import type { EngineServices } from "../../engine/services";
import { apiHeadersSchema, errorResponses } from "../../routes/common";
import { renderInvoicePdf } from "./invoicePdf";
import { catalogNamesIn } from "./catalogNames";
import { invoiceRecords, toInvoice } from "./records";
import { logReadOf } from "../accessLog/accessLog";

/**
 * `GET /invoices/{id}/pdf`: a file, not a record, so the record API cannot serve it. Whoever may
 * show the bill may download it (the same access and ownership); anyone else gets 404.
 */
export const invoicePdfRoutes =
  (services: EngineServices): FastifyPluginAsyncZod =>
  (app) => {
    app.get(
      "/invoices/:id/pdf",
      {
        schema: {
          tags: ["invoices"],
          operationId: "getInvoicePdf",
          summary: "One bill as a PDF",
          description:
            "The same access as GET /invoices/{id}: 404 when it does not exist or is not yours. Answers application/pdf, worded in the language Accept-Language asks for (English or Spanish).",
          headers: apiHeadersSchema,
          params: idParamsSchema,
          response: {
            200: {
              description: "The bill as a PDF file",
              content: { "application/pdf": { schema: z.string().meta({ format: "binary" }) } },
            },
            ...errorResponses,
          },
        },
      },
      async (request, reply) => {
        const row = await findRecordRow(
          services.db,
          invoicesResource,
          invoiceRecords,
          request.principal,
          "show",
          request.params.id,
        );
        if (!row) throw notFound(words("invoices.noSuchInvoice"));
        await logReadOf(services.db, request, "invoices", invoiceRecords.source.ownerUids(row));
        const invoice = toInvoice(row);
        const [operator] = await services.db
          .select({ name: operators.name })
          .from(operators)
          .where(eq(operators.code, request.principal.operator));
        // In the language the portal (or the browser) asks for, like every other answer (issue 25).
        const locale = localeOf(request.headers);
        const names = await catalogNamesIn(services.db, request.principal.operator, locale);
        const pdf = await renderInvoicePdf(invoice, operator?.name ?? request.principal.operator, locale, names);
        return reply
          .type("application/pdf")
          .header("content-disposition", `inline; filename="bill-${invoice.number}.pdf"`)
          .header("cache-control", "private, no-store")
          .send(Buffer.from(pdf) as never);
      },
    );
    // Routes register synchronously; Fastify's plugin contract is a promise.
    return Promise.resolve();
  };
