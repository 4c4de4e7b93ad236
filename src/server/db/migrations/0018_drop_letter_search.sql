-- The letter runs' index goes, with the function only it used: a search of letters is a LIKE through the trigram
-- index (users_type_search_idx), and no server keeps statistics of its own to choose between the two.
DROP INDEX "users_type_letters_idx";--> statement-breakpoint
DROP FUNCTION "search_letter_grams"(text);
