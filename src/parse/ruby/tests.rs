use super::*;

use crate::parse::tests::{kind_tree, row as e, KindRow};

fn shape(text: &str) -> Vec<KindRow> {
    kind_tree(&parse_plain(text))
}

/// A file that is not a Rakefile.
fn parse_plain(text: &str) -> Vec<Entry> {
    parse(text, false)
}

use Kind::{
    Class as C, Constant as K, Field as Fd, Function as F, Method as M, Module as Md,
    Namespace as N, Target as T,
};

#[test]
fn modules_classes_and_every_method_form() {
    let text = "\
module A::B
  class C < D
    attr_reader :x, :y
    def initialize(a)
      @a = a if a
    end
    def self.build = new(1)
    def ==(o) = o.x == x
    def []=(k, v); end
    def +@
    end
    def x=(v)
      return unless v
      @x = v
    end
    def empty? = @a.nil?
    class << self
      def cached
        @cached ||= {}
      end
    end
  end
end
def top(a,
        b)
end
";
    assert_eq!(
        shape(text),
        [
            e(Md, "A::B", 1, 23, 0),
            e(C, "C", 2, 22, 1),
            e(Fd, "x", 3, 3, 2),
            e(Fd, "y", 3, 3, 2),
            e(M, "initialize", 4, 6, 2),
            e(M, "self.build", 7, 7, 2),
            e(M, "==", 8, 8, 2),
            e(M, "[]=", 9, 9, 2),
            e(M, "+@", 10, 11, 2),
            e(M, "x=", 12, 15, 2),
            e(M, "empty?", 16, 16, 2),
            e(M, "self.cached", 18, 20, 2),
            e(F, "top", 24, 26, 0),
        ]
    );
}

#[test]
fn blocks_count_every_opener_but_modifiers_and_loop_dos() {
    let text = "\
class A
  def run
    while x do
      y += 1 until y > 3
    end
    for i in 1..2 do end
    items.each do |i|
      next if i
      case i
      when 1 then begin; rescue; end
      end
    end
    z = if a then 1 else 2 end
    h = { if: 1, end: 2, class: :end }
    obj.class.end
    loop { break }
    [1].map { |v| v }
    until done
      step
    end
    x = y unless z
  end
end
";
    assert_eq!(shape(text), [e(C, "A", 1, 23, 0), e(M, "run", 2, 22, 1)]);
}

#[test]
fn literals_hide_what_looks_like_code() {
    let text = "\
class A
  DOC = <<~EOS
    def fake
    end
  EOS
  SQL = <<-SQL.strip + <<~'X'
    class Fake
  SQL
    end
  X
  WORDS = %w[def end class]
  RE = %r{\\bend\\b}
  def real(a) = a / 2 # end
  def other
    s = \"end #{ if a then 1 end } def\"
    t = 'end'
    r = /end/ if s =~ /def/
    c = ?e
  end
=begin
def hidden
=end
end
__END__
def data
";
    assert_eq!(
        shape(text),
        [
            e(C, "A", 1, 23, 0),
            e(K, "DOC", 2, 2, 1),
            e(K, "SQL", 6, 6, 1),
            e(K, "WORDS", 11, 11, 1),
            e(K, "RE", 12, 12, 1),
            e(M, "real", 13, 13, 1),
            e(M, "other", 14, 19, 1),
        ]
    );
}

#[test]
fn constants_made_by_struct_new_are_classes_with_their_methods() {
    let text = "\
Point = Struct.new(:x, :y) do
  def dist
    Math.sqrt(x * x)
  end
end
Coord = Data.define(:lat)
LIMITS = {
  max: 1,
}
A::B = 1
";
    assert_eq!(
        shape(text),
        [
            e(C, "Point", 1, 5, 0),
            e(M, "dist", 2, 4, 1),
            e(C, "Coord", 6, 6, 0),
            e(K, "LIMITS", 7, 9, 0),
            e(K, "A::B", 10, 10, 0),
        ]
    );
}

#[test]
fn aliases_and_defined_methods_with_literal_names() {
    let text = "\
class A
  alias new_name old_name
  alias_method :other, :old
  define_method(:made) do |x|
    x
  end
  define_method(\"braced\") { |y| y }
  define_method(name) { }
end
";
    assert_eq!(
        shape(text),
        [
            e(C, "A", 1, 9, 0),
            e(M, "new_name", 2, 2, 1),
            e(M, "other", 3, 3, 1),
            e(M, "made", 4, 6, 1),
            e(M, "braced", 7, 7, 1),
        ]
    );
}

#[test]
fn rake_tasks_and_namespaces() {
    let text = "\
namespace :db do
  desc 'migrate'
  task migrate: :environment do
    sh 'x'
  end
  task :seed
end
file 'out.txt' => ['in.txt'] do |t|
end
rule '.o' => '.c'
class Helper
  def x
    task :not_a_task
  end
end
";
    // Outside a Rakefile the same calls are another DSL's (Sinatra's `namespace '/api'`).
    assert!(shape(text).iter().all(|row| row.0 != T && row.0 != N));
    assert_eq!(
        kind_tree(&parse(text, true)),
        [
            e(N, "db", 1, 7, 0),
            e(T, "migrate", 3, 5, 1),
            e(T, "seed", 6, 6, 1),
            e(T, "out.txt", 8, 9, 0),
            e(T, ".o", 10, 10, 0),
            e(C, "Helper", 11, 15, 0),
            e(M, "x", 12, 14, 1),
        ]
    );
}

#[test]
fn spec_blocks_are_not_entries_but_what_they_define_is() {
    let text = "\
RSpec.describe Cart do
  context 'when empty' do
    it 'is empty' do
      expect(cart).to be_empty
    end
    it { is_expected.to be_valid }
    def helper = 1
  end
end
describe \"Thing\" do
  it \"works\" do end
end
class After
end
";
    let found = shape(text);
    assert_eq!(found.len(), 2, "{found:?}");
    assert_eq!(found[0].1, "helper");
    assert_eq!((found[0].2, found[0].3), (7, 7));
    assert_eq!(found[1].1, "After");
    assert_eq!((found[1].2, found[1].3), (13, 14));
}

#[test]
fn signatures_are_the_heads() {
    let entries = parse_plain("class A < B # note\n  def x(a,\n    b) = a\nend\n");
    assert_eq!(entries[0].signature.as_deref(), Some("class A < B"));
    assert_eq!(
        entries[0].children[0].signature.as_deref(),
        Some("def x(a, b)")
    );
}

#[test]
fn unclosed_and_junk_input_ends_without_panic() {
    assert_eq!(
        shape("class A\n  def f\n"),
        [e(C, "A", 1, 2, 0), e(M, "f", 2, 2, 1)]
    );
    for junk in [
        "end end }",
        "def",
        "class",
        "<<~",
        "%w[",
        "X =",
        "def (",
        "?",
        "a ? b :c",
    ] {
        parse_plain(junk);
    }
}
