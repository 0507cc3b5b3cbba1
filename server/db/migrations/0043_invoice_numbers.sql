-- Hand-written (issue 30): a bill's number ends with the next value of this sequence instead of the
-- first 8 hex digits of its account id, which collided once postpaid accounts were hundreds of
-- thousands (32 bits: about a dozen equal prefixes among 333,000 accounts, and the unique
-- (operator_code, number) refused the whole cycle close). Nine digits, so never equal to the 8
-- characters of a number issued before.
CREATE SEQUENCE IF NOT EXISTS "invoice_number_seq";
