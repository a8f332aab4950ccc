# SPDX-License-Identifier: Apache-2.0
# Turns resources/schema.sql into a C++ raw string so the core library carries its schema.
file(READ ${IN} SQL)
file(WRITE ${OUT} "// Generated from resources/schema.sql; do not edit.\n#include <string_view>\nnamespace npuscope::model {\nextern const std::string_view kSchemaSql;\nconst std::string_view kSchemaSql = R\"npuscope_schema(${SQL})npuscope_schema\";\n}\n")
