import { defineWords } from "../defineWords";

/** The number portability exchange's webhook (server/domain/porting/webhookRoutes.ts). */
export const portingWords = defineWords({
  "porting.webhook.notAnswer": {
    en: "The webhook body is not a port request answer: {{issues}}",
    es: "El cuerpo del webhook no es una respuesta a una solicitud de portabilidad: {{issues}}",
  },
  "porting.webhook.unknownRequest": {
    en: "No port request of ours has this reference.",
    es: "Ninguna solicitud de portabilidad nuestra tiene esta referencia.",
  },
  "porting.webhook.unknownRequestField": { en: "not a port request of ours", es: "no es una solicitud nuestra" },
  "porting.webhook.notConfigured": {
    en: "This server talks to no number portability exchange (PORTING_EXCHANGE_URL).",
    es: "Este servidor no está conectado a ningún intercambio de portabilidad (PORTING_EXCHANGE_URL).",
  },
});
