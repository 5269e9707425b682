# Turn db/schema.sql into a C byte array (no escaping pitfalls).
file(READ ${IN} hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," body "${hex}")
file(WRITE ${OUT} "/* generated from db/schema.sql; do not edit */\n"
	"const char db_schema_sql[] = {${body} 0x00};\n")
