import { defineWords } from "../defineWords";

/** Uploaded files: uploading and downloading them, the upload quota, ID documents an action relies on. */
export const filesWords = defineWords({
  "files.noStore": {
    en: "No file store is configured on this server.",
    es: "Este servidor no tiene configurado un almacén de archivos.",
  },
  "files.bodyNotBytes": {
    en: "The body must be the file's bytes.",
    es: "El cuerpo de la solicitud debe ser el contenido del archivo (sus bytes).",
  },
  "files.field.sendBytes": { en: "send the file's bytes", es: "envía el contenido del archivo" },
  "files.typeNotAccepted": {
    en: "Only PDF, PNG, JPEG, WebP and HEIC files are accepted.",
    es: "Solo se aceptan archivos PDF, PNG, JPEG, WebP y HEIC.",
  },
  "files.field.typeNotAccepted": {
    en: "not a PDF, PNG, JPEG, WebP or HEIC file",
    es: "no es un archivo PDF, PNG, JPEG, WebP ni HEIC",
  },
  "files.idNotUuid": { en: "must be a UUID", es: "debe ser un UUID" },
  "files.noSuchFile": { en: "No such file.", es: "Ese archivo no existe." },
  "files.contentGone": {
    en: "The file's content is no longer stored.",
    es: "El contenido del archivo ya no está guardado.",
  },
  "files.quota.files": {
    en: "You have uploaded {{maxFiles}} files in the last {{hours}} hours, the most allowed; try again later.",
    es: "Subiste {{maxFiles}} archivos en las últimas {{hours}} horas, el máximo permitido; inténtalo de nuevo más tarde.",
  },
  "files.quota.bytes": {
    en: "This upload would take you past {{megabytes}} MB uploaded in the last {{hours}} hours, the most allowed; try again later.",
    es: "Con este archivo superarías los {{megabytes}} MB subidos en las últimas {{hours}} horas, el máximo permitido; inténtalo de nuevo más tarde.",
  },
  "files.idDocument.notYours": {
    en: "No ID document with this id was uploaded by the line's holder (or by you for them).",
    es: "Ni el titular de la línea ni tú en su nombre subieron un documento de identidad con este id.",
  },
  "files.idDocument.field.notYours": {
    en: "no ID document with this id that you may use: upload a photo or scan of the holder's ID",
    es: "no hay ningún documento de identidad con este id que puedas usar: sube una foto o un escaneo de la identificación del titular",
  },
  "files.idDocument.notIdDocument": {
    en: "That file was not uploaded as an ID document.",
    es: "Ese archivo no se subió como documento de identidad.",
  },
  "files.idDocument.field.notIdDocument": {
    en: "this file is not an ID document: upload the photo or scan of the ID as one",
    es: "este archivo no es un documento de identidad: sube la foto o el escaneo de la identificación como documento de identidad",
  },
});
