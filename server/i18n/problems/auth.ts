import { defineWords } from "../defineWords";

/** Who may call (server/auth): the sign-in, the operator a call names, machine callers' API keys. */
export const authWords = defineWords({
  "auth.operatorHeader": {
    en: "The X-Operator header must carry the carrier code.",
    es: "El encabezado X-Operator debe llevar el código del operador.",
  },
  "auth.operatorHeaderOrQuery": {
    en: "The X-Operator header or the operator parameter must carry the carrier code.",
    es: "El encabezado X-Operator o el parámetro operator debe llevar el código del operador.",
  },
  "auth.operatorField": {
    en: "required, a carrier code such as ATT",
    es: "obligatorio, un código de operador como ATT",
  },
  "auth.signInFirst": {
    en: "Sign in first: send 'Authorization: Bearer <Firebase ID token>'.",
    es: "Primero inicia sesión: envía 'Authorization: Bearer <token de ID de Firebase>'.",
  },
  "auth.notOperatorsAccount": {
    en: "This account does not belong to operator {{operator}}.",
    es: "Esta cuenta no pertenece al operador {{operator}}.",
  },
  "auth.roleWithoutOperator": {
    en: "This account's role names no operator.",
    es: "El rol de esta cuenta no indica ningún operador.",
  },
  "auth.noRoleYet": { en: "This account has no role yet.", es: "Esta cuenta todavía no tiene un rol." },
  "auth.noSuchOperator": { en: "There is no operator {{operator}}.", es: "No existe el operador {{operator}}." },
  "auth.mfaRequired": {
    en: "Your operator requires staff to sign in with a second factor: enroll one and sign in again.",
    es: "Tu operador exige que el personal inicie sesión con un segundo factor: registra uno y vuelve a iniciar sesión.",
  },
  "auth.unknownUser": {
    en: "The token names a user that does not exist.",
    es: "El token corresponde a un usuario que no existe.",
  },
  "auth.disabled": { en: "This account is disabled.", es: "Esta cuenta está deshabilitada." },
  "auth.roleMismatch": {
    en: "The token's role does not match the account; refresh the token and try again.",
    es: "El rol del token no coincide con el de la cuenta; actualiza el token e inténtalo de nuevo.",
  },
  "auth.tokenExpired": {
    en: "The ID token has expired; sign in again.",
    es: "El token de ID venció; vuelve a iniciar sesión.",
  },
  "auth.signedOutEverywhere": {
    en: "The session was signed out everywhere; sign in again.",
    es: "Se cerró la sesión en todos los dispositivos; vuelve a iniciar sesión.",
  },
  "auth.tokenNotValid": { en: "The ID token is not valid.", es: "El token de ID no es válido." },
  "auth.apiKey.tooManyFailures": {
    en: "Too many requests with a wrong API key from this address; try again later.",
    es: "Demasiadas solicitudes con una clave de API incorrecta desde esta dirección; vuelve a intentarlo más tarde.",
  },
  "auth.apiKey.notForPeople": {
    en: "This path is for the network's systems: send 'Authorization: ApiKey <key>', not a person's sign-in.",
    es: "Esta ruta es para los sistemas de la red: envía 'Authorization: ApiKey <clave>', no el inicio de sesión de una persona.",
  },
  "auth.apiKey.missing": {
    en: "Send 'Authorization: ApiKey <key>' with a key configured on the backend (INGEST_API_KEYS).",
    es: "Envía 'Authorization: ApiKey <clave>' con una clave configurada en el backend (INGEST_API_KEYS).",
  },
  "auth.apiKey.unknown": {
    en: "This API key is not configured on the backend.",
    es: "Esta clave de API no está configurada en el backend.",
  },
  "auth.apiKey.otherOperator": {
    en: "This API key does not serve operator {{operator}}.",
    es: "Esta clave de API no corresponde al operador {{operator}}.",
  },
});
