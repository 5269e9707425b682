# Turn db/schema.sql (or schema_pg.sql) into a C byte array (no escaping
# pitfalls) named NAME (default db_schema_sql).
if(NOT NAME)
	set(NAME db_schema_sql)
endif()
file(READ ${IN} hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," body "${hex}")
file(WRITE ${OUT} "/* generated from db/schema.sql; do not edit */\n"
	"const char ${NAME}[] = {${body} 0x00};\n")
