-- Need-to-know tags are never NULL (issue 11 §1): a NULL tag is a marking nobody can read. Other unreadable values
-- (a classification added to the enum by another tool, a blank tag) are still possible and are denied at read time
-- (lib/domain/markings.ts readMarking); this makes the database itself refuse the one a client library cannot even read.
ALTER TABLE "graph_node" ADD CONSTRAINT "graph_node_need_to_know_no_null" CHECK (array_position("need_to_know", NULL) IS NULL);
ALTER TABLE "graph_edge" ADD CONSTRAINT "graph_edge_need_to_know_no_null" CHECK (array_position("need_to_know", NULL) IS NULL);
ALTER TABLE "evidence" ADD CONSTRAINT "evidence_need_to_know_no_null" CHECK (array_position("need_to_know", NULL) IS NULL);
ALTER TABLE "user" ADD CONSTRAINT "user_need_to_know_no_null" CHECK (array_position("need_to_know", NULL) IS NULL);
