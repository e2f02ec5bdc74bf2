use super::*;

type Row = (Kind, String, usize, usize);

fn flat(src: &str) -> Vec<Row> {
    fn go(e: &[Entry], out: &mut Vec<Row>) {
        for x in e {
            out.push((x.kind, x.name().to_string(), x.line, x.end_line));
            go(&x.children, out);
        }
    }
    let mut out = Vec::new();
    go(&parse(src), &mut out);
    out
}

fn r(kind: Kind, name: &str, line: usize, end: usize) -> Row {
    (kind, name.to_string(), line, end)
}

fn sigs(src: &str) -> Vec<String> {
    parse(src)
        .into_iter()
        .map(|e| e.signature.unwrap_or_default().to_string())
        .collect()
}

#[test]
fn postgres_objects_comments_and_strings() {
    let src = "\
-- CREATE TABLE fake (x int);
/* outer /* nested CREATE TABLE no (a int); */ still comment */
\\echo loading
CREATE SCHEMA IF NOT EXISTS app;

create table if not exists app.\"User Accounts\" (
    id bigserial primary key,
    \"Email\" text not null unique, -- comment, with comma
    note text default 'it''s; CREATE TABLE x',
    misc text default E'a\\'b; c',
    constraint uq unique (id, \"Email\"),
    check (id > 0)
);

CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS users_email_idx
    ON app.\"User Accounts\" USING btree (lower(\"Email\"))
    WHERE note IS NOT NULL;
CREATE INDEX ON app.events USING gin (payload);
";
    assert_eq!(
        flat(src),
        vec![
            r(Kind::Schema, "app", 4, 4),
            r(Kind::Table, "User Accounts", 6, 13),
            r(Kind::Field, "id", 7, 7),
            r(Kind::Field, "Email", 8, 8),
            r(Kind::Field, "note", 9, 9),
            r(Kind::Field, "misc", 10, 10),
            r(Kind::Index, "users_email_idx", 15, 17),
            r(Kind::Index, "on events", 18, 18),
        ]
    );
    assert_eq!(
        sigs(src),
        vec![
            "app",
            "app.\"User Accounts\" (4 columns)",
            "UNIQUE users_email_idx ON app.\"User Accounts\" USING btree (lower(\"Email\"))",
            "ON app.events USING gin (payload)",
        ]
    );
}

#[test]
fn dollar_quoted_bodies_and_routines() {
    let src = "\
CREATE OR REPLACE FUNCTION app.touch(p_id bigint, p_at timestamptz DEFAULT now())
RETURNS trigger
LANGUAGE plpgsql
AS $fn$
BEGIN
  -- CREATE TABLE inside body;
  CREATE TABLE not_me (a int);
  RETURN NEW;
END;
$fn$;

CREATE TRIGGER touch_trg BEFORE UPDATE ON app.t
    FOR EACH ROW EXECUTE FUNCTION app.touch();
CREATE FUNCTION add(a integer, b integer) RETURNS integer
    LANGUAGE SQL IMMUTABLE
    RETURN a + b;
CREATE FUNCTION atomic_f(a int) RETURNS int LANGUAGE sql
BEGIN ATOMIC
  SELECT a + 1;
  SELECT CASE WHEN a > 0 THEN 1 ELSE 0 END;
END;
CREATE PROCEDURE insert_data(a integer)
LANGUAGE SQL
AS $$ INSERT INTO tbl VALUES (a); $$;
CREATE AGGREGATE my_sum(int) (SFUNC = int4pl, STYPE = int);
";
    assert_eq!(
        flat(src),
        vec![
            r(Kind::Function, "touch", 1, 10),
            r(Kind::Trigger, "touch_trg", 12, 13),
            r(Kind::Function, "add", 14, 16),
            r(Kind::Function, "atomic_f", 17, 21),
            r(Kind::Procedure, "insert_data", 22, 24),
            r(Kind::Function, "my_sum", 25, 25),
        ]
    );
    let s = sigs(src);
    assert_eq!(
        s[0],
        "app.touch(p_id bigint, p_at timestamptz DEFAULT now()) RETURNS trigger"
    );
    assert_eq!(s[1], "touch_trg BEFORE UPDATE ON app.t");
    assert_eq!(s[2], "add(a integer, b integer) RETURNS integer");
}

#[test]
fn types_views_sequences_and_ctas() {
    let src = "\
CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy');
CREATE MATERIALIZED VIEW app.stats AS
  SELECT count(*) FROM app.t;
CREATE VIEW v1 (a) AS SELECT 1;
CREATE TABLE copy_t AS SELECT * FROM v1;
CREATE TABLE named_t (a, b) AS SELECT 1, 2;
CREATE SEQUENCE app.seq START 1;
CREATE DOMAIN posint AS integer CHECK (VALUE > 0);
CREATE TEMP TABLE tmp (a int)";
    assert_eq!(
        flat(src),
        vec![
            r(Kind::Type, "mood", 1, 1),
            r(Kind::View, "stats", 2, 3),
            r(Kind::View, "v1", 4, 4),
            r(Kind::Table, "copy_t", 5, 5),
            r(Kind::Table, "named_t", 6, 6),
            r(Kind::Sequence, "seq", 7, 7),
            r(Kind::Type, "posint", 8, 8),
            r(Kind::Table, "tmp", 9, 9),
            r(Kind::Field, "a", 9, 9),
        ]
    );
    let s = sigs(src);
    assert_eq!(s[0], "mood AS ENUM ('sad', 'ok', 'happy')");
    assert_eq!(s[1], "MATERIALIZED app.stats");
    assert_eq!(s[2], "v1 (a)");
    assert_eq!(s[7], "TEMP tmp (1 column)");
}

#[test]
fn mysql_delimiters_and_backslash_strings() {
    let src = "\
# MySQL dump
CREATE TABLE `users` (
  `id` int(11) NOT NULL AUTO_INCREMENT,
  `key` varchar(64) NOT NULL,
  `bio` text DEFAULT 'it\\'s; fine',
  PRIMARY KEY (`id`),
  UNIQUE KEY `uk_key` (`key`),
  KEY `idx_bio` (`bio`(10))
) ENGINE=InnoDB;

DELIMITER //
CREATE DEFINER=`root`@`localhost` PROCEDURE `add_user`(IN p_name VARCHAR(255))
BEGIN
  IF p_name IS NULL THEN
    SET @v = 0;
  END IF;
  INSERT INTO users(name) VALUES (p_name);
END //
DELIMITER ;
DELIMITER $$
CREATE TRIGGER users_bi BEFORE INSERT ON users
FOR EACH ROW
BEGIN
  SET NEW.bio = TRIM(NEW.bio);
END$$
DELIMITER ;
CREATE OR REPLACE ALGORITHM=MERGE VIEW user_names AS SELECT `key` FROM users;
";
    assert_eq!(
        flat(src),
        vec![
            r(Kind::Table, "users", 2, 9),
            r(Kind::Field, "id", 3, 3),
            r(Kind::Field, "key", 4, 4),
            r(Kind::Field, "bio", 5, 5),
            r(Kind::Procedure, "add_user", 12, 18),
            r(Kind::Trigger, "users_bi", 21, 25),
            r(Kind::View, "user_names", 27, 27),
        ]
    );
}

#[test]
fn begin_end_bodies_without_delimiter() {
    let src = "\
CREATE TRIGGER notes_ai AFTER INSERT ON notes BEGIN
  INSERT INTO fts(rowid, body) VALUES (new.id, new.body);
  UPDATE counts SET n = CASE WHEN n > 0 THEN n + 1 ELSE 1 END;
END;
CREATE PROCEDURE p() BEGIN
  WHILE x < 3 DO
    SET x = x + 1;
  END WHILE;
  BEGIN
    SELECT 1;
  END;
END;
CREATE TABLE after_all (a int);
";
    assert_eq!(
        flat(src),
        vec![
            r(Kind::Trigger, "notes_ai", 1, 4),
            r(Kind::Procedure, "p", 5, 12),
            r(Kind::Table, "after_all", 13, 13),
            r(Kind::Field, "a", 13, 13),
        ]
    );
}

#[test]
fn tsql_batches_and_brackets() {
    let src = "\
CREATE TABLE [dbo].[Order Lines] (
    [OrderID] INT IDENTITY(1,1) NOT NULL,
    [Customer] NVARCHAR(100) NULL,
    INDEX IX_c NONCLUSTERED ([Customer]),
    CONSTRAINT [PK_Orders] PRIMARY KEY CLUSTERED ([OrderID] ASC)
)
GO

CREATE PROCEDURE dbo.GetOrders
    @CustomerId INT,
    @Limit INT = 10
AS
    SET NOCOUNT ON;
    SELECT TOP (@Limit) * FROM dbo.Orders WHERE Customer = @CustomerId;
GO

CREATE NONCLUSTERED INDEX IX_Orders_Customer ON dbo.Orders (Customer)
go
CREATE VIEW dbo.vOrders
AS
SELECT OrderID FROM dbo.Orders;
GO
";
    assert_eq!(
        flat(src),
        vec![
            r(Kind::Table, "Order Lines", 1, 6),
            r(Kind::Field, "OrderID", 2, 2),
            r(Kind::Field, "Customer", 3, 3),
            r(Kind::Procedure, "GetOrders", 9, 14),
            r(Kind::Index, "IX_Orders_Customer", 17, 17),
            r(Kind::View, "vOrders", 19, 21),
        ]
    );
    assert_eq!(
        sigs(src)[1],
        "dbo.GetOrders @CustomerId INT, @Limit INT = 10"
    );
}

#[test]
fn statements_without_semicolons() {
    let src = "\
CREATE TABLE a (x int)
INSERT INTO a VALUES (1)
CREATE TABLE b (y int)

CREATE INDEX b_y ON b (y)
";
    assert_eq!(
        flat(src),
        vec![
            r(Kind::Table, "a", 1, 1),
            r(Kind::Field, "x", 1, 1),
            r(Kind::Table, "b", 3, 3),
            r(Kind::Field, "y", 3, 3),
            r(Kind::Index, "b_y", 5, 5),
        ]
    );
}

#[test]
fn crlf_and_other_statements_ignored() {
    let src = "SET search_path = app;\r\nINSERT INTO t VALUES ('CREATE TABLE x (a int);');\r\nCREATE EXTENSION IF NOT EXISTS pgcrypto;\r\nCREATE VIEW v AS\r\n  SELECT 1;\r\nCOMMENT ON VIEW v IS 'x';\r\n";
    assert_eq!(flat(src), vec![r(Kind::View, "v", 4, 5)]);
}

#[test]
fn junk_does_not_panic() {
    assert!(parse("").is_empty());
    for src in [
        "CREATE",
        "CREATE TABLE",
        "CREATE TABLE (",
        "CREATE TABLE t (",
        "CREATE TABLE [",
        "CREATE TABLE [x",
        "CREATE INDEX ON",
        "CREATE FUNCTION f( RETURNS",
        "CREATE TABLE t ('",
        "CREATE FUNCTION f() AS $$ never closed",
        "/* unclosed CREATE TABLE t (a int);",
        "DELIMITER\nDELIMITER //\nCREATE TABLE t (a int) //",
        "CREATE PROCEDURE p() BEGIN BEGIN BEGIN",
        "CREATE TABLE \"\" (a int);",
        "E'\\",
        "$",
        "$a",
        "\u{0}\u{1}CREATE\u{feff} TABLE é (ü int);",
    ] {
        parse(src);
    }
    assert_eq!(
        flat("CREATE TABLE t (a int) //")
            .first()
            .map(|row| row.1.clone()),
        Some("t".to_string())
    );
}

#[test]
fn nonstandard_strings_in_old_postgres_dumps() {
    let src = "SET standard_conforming_strings = off;\nINSERT INTO t VALUES ('a\\'; CREATE TABLE no (x int); \\'');\nCREATE TABLE yes (x int);\n";
    assert_eq!(
        flat(src),
        vec![r(Kind::Table, "yes", 3, 3), r(Kind::Field, "x", 3, 3)]
    );
}

#[test]
fn pg_dump_copy_data_is_skipped() {
    let src = "COPY public.users (id, name) FROM stdin;\n1\tO'Brien\n2\tCREATE TABLE x (a int);\n\\.\n\nCREATE TABLE after_copy (a int);\n";
    assert_eq!(
        flat(src),
        vec![
            r(Kind::Table, "after_copy", 6, 6),
            r(Kind::Field, "a", 6, 6)
        ]
    );
}

#[test]
fn warehouse_dialects() {
    let src = "CREATE OR REPLACE TABLE `proj.analytics.events` (\n  id INT64,\n  payload STRING\n);\nCREATE TABLE IF NOT EXISTS db.hits ON CLUSTER main (\n  ts DateTime\n) ENGINE = MergeTree ORDER BY ts;\n";
    assert_eq!(
        flat(src),
        vec![
            r(Kind::Table, "events", 1, 4),
            r(Kind::Field, "id", 2, 2),
            r(Kind::Field, "payload", 3, 3),
            r(Kind::Table, "hits", 5, 7),
            r(Kind::Field, "ts", 6, 6),
        ]
    );
}

#[test]
fn stray_batch_line_does_not_swallow_statements() {
    let src = "/*\ngo\n*/\nCREATE FUNCTION f() RETURNS int AS $$ SELECT 1; $$ LANGUAGE sql;\nGRANT EXECUTE ON FUNCTION f() TO app;\nCREATE TABLE t (a int);\nCREATE FUNCTION g() RETURNS int AS $$ SELECT 2; $$ LANGUAGE sql;\nALTER FUNCTION g() OWNER TO app;\n";
    assert_eq!(
        flat(src),
        vec![
            r(Kind::Function, "f", 4, 4),
            r(Kind::Table, "t", 6, 6),
            r(Kind::Field, "a", 6, 6),
            r(Kind::Function, "g", 7, 7),
        ]
    );
}

#[test]
fn oracle_packages_type_bodies_and_databases() {
    let src = "\
CREATE OR REPLACE PACKAGE demo_pkg IS
  FUNCTION f1 RETURN NUMBER;
  PROCEDURE p1(x IN NUMBER);
END demo_pkg;
/
CREATE OR REPLACE PACKAGE BODY demo_pkg AS
  FUNCTION f1 RETURN NUMBER IS
    n NUMBER;
  BEGIN
    IF n > 0 THEN n := 1; END IF;
    RETURN CASE WHEN n = 1 THEN 1 ELSE 0 END;
  END f1;
  PROCEDURE p1(x IN NUMBER) AS
  BEGIN
    NULL;
  END;
END demo_pkg;
/
CREATE OR REPLACE TYPE BODY emp_obj_typ AS
  MEMBER FUNCTION get_name RETURN VARCHAR2 IS
  BEGIN
    RETURN name;
  END;
END;
/
CREATE DATABASE sales;
CREATE TABLE t (id NUMBER);
";
    assert_eq!(
        flat(src),
        vec![
            r(Kind::Module, "demo_pkg", 1, 4),
            r(Kind::Function, "f1", 2, 2),
            r(Kind::Procedure, "p1", 3, 3),
            r(Kind::Module, "demo_pkg", 6, 17),
            r(Kind::Function, "f1", 7, 12),
            r(Kind::Procedure, "p1", 13, 16),
            r(Kind::Type, "emp_obj_typ", 19, 24),
            r(Kind::Function, "get_name", 20, 23),
            r(Kind::Schema, "sales", 26, 26),
            r(Kind::Table, "t", 27, 27),
            r(Kind::Field, "id", 27, 27),
        ]
    );
    // Without `/` lines, the package's members do not end it.
    let plain =
        "CREATE PACKAGE p AS\n  FUNCTION f RETURN NUMBER;\nEND p;\nCREATE TABLE u (a INT);\n";
    assert_eq!(
        flat(plain),
        vec![
            r(Kind::Module, "p", 1, 3),
            r(Kind::Function, "f", 2, 2),
            r(Kind::Table, "u", 4, 4),
            r(Kind::Field, "a", 4, 4),
        ]
    );
    let sigs = sigs(src);
    assert_eq!(sigs[1], "BODY demo_pkg");
}
