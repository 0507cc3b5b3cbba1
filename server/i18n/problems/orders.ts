import { defineWords } from "../defineWords";

/** An order's state machine (TMF622). */
export const ordersWords = defineWords({
  // {{from}}, {{to}} and {{state}} are orders.state.* words; English shows the state's code, as before.
  "orders.cannotBecome": {
    en: "An order that is {{from}} cannot become {{to}}.",
    es: "Un pedido en estado «{{from}}» no puede pasar a «{{to}}».",
  },
  "orders.isState": { en: "is {{state}}", es: "está en estado «{{state}}»" },
  "orders.state.acknowledged": { en: "acknowledged", es: "recibido" },
  "orders.state.in_progress": { en: "in_progress", es: "en curso" },
  "orders.state.pending": { en: "pending", es: "esperando datos" },
  "orders.state.completed": { en: "completed", es: "completado" },
  "orders.state.failed": { en: "failed", es: "fallido" },
  "orders.state.cancelled": { en: "cancelled", es: "cancelado" },
});
