// The .pvi modelling language. See docs/language.md for the meaning of every construct.
// The C++ parser is generated from this file at build time (Debian's antlr4 4.7.2);
// the generated files are never committed.
grammar PVI;

program
  : (annotation | functionsBlock)* block* EOF
  ;

// Stan's user-defined functions (inlined at each call: compiler/desugar/InlineFunctions.hpp).
// A declaration without a body (`real f(real x);`) declares a function defined later.
functionsBlock
  : 'functions' '{' functionDef* '}'
  ;

functionDef
  : returnType IDENT '(' (param (',' param)*)? ')' ('{' statement* '}' | ';')
  ;

returnType
  : 'void'
  | unsizedType
  ;

param
  : 'data'? unsizedType IDENT
  ;

// Types without sizes, for arguments and return values: array[] real, array[,] vector, matrix.
unsizedType
  : 'array' '[' commas+=','* ']' kw=('int' | 'real' | 'vector' | 'row_vector' | 'matrix')
  | kw=('int' | 'real' | 'vector' | 'row_vector' | 'matrix')
  ;

annotation
  : '@' IDENT '(' identList ')'
  ;

identList
  : IDENT (',' IDENT)*
  ;

// Blocks. `per NAME` ties a block to the partition NAME declared by @partition(NAME). Stan's
// names are accepted too: `parameters` is `global` and `generated quantities` is `generated`
// (`quantities` is matched as a name, so that it stays usable as a variable's name), and Stan's
// `transformed data` and `transformed parameters` blocks (compiler/desugar).
block
  : kind=('data' | 'local') perPartition? '{' statement* '}'
  | kind=('hyper' | 'global' | 'parameters' | 'model') '{' statement* '}'
  | kind='generated' quantities=IDENT? '{' statement* '}'
  | kind='transformed' which=('data' | 'parameters') '{' statement* '}'
  ;

perPartition
  : 'per' IDENT
  ;

// Types ----------------------------------------------------------------------------------------

type
  : 'array' '[' exprList ']' elemType
  | elemType
  ;

elemType
  : kw='int' bounds?
  | kw='real' bounds?
  | kw='vector' bounds? '[' expr ']'
  | kw='row_vector' bounds? '[' expr ']'
  | kw='matrix' bounds? '[' expr ',' expr ']'
  | kw=('simplex' | 'ordered' | 'positive_ordered' | 'unit_vector') '[' expr ']'   // constrained vectors
  | kw=('cholesky_factor_corr' | 'corr_matrix' | 'cov_matrix') '[' expr ']'   // K x K matrices
  | kw='cholesky_factor_cov' '[' expr (',' expr)? ']'               // M x M, or M x N
  ;

bounds
  : '<' bound (',' bound)? '>'
  ;

// lower, upper, offset and multiplier are names here, not keywords, so that they stay usable as
// variables' names (as in Stan); the AST builder refuses any other name.
bound
  : which=IDENT '=' boundExpr
  ;

// Statements -----------------------------------------------------------------------------------

statement
  : type IDENT ('=' expr)? ';'                                       # declStmt
  | 'target' '+=' expr ';'                                          # targetStmt
  | 'for' '(' IDENT 'in' expr ':' expr ')' statement               # forStmt
  | 'if' '(' expr ')' statement ('else' statement)?                 # ifStmt
  | 'while' '(' expr ')' statement                                  # whileStmt
  | '{' statement* '}'                                              # blockStmt
  | 'return' expr? ';'                                              # returnStmt
  | expr stmtTail? ';'                                               # exprStmt
  ;

// One rule for `lhs ~ dist(...)` and `lhs = rhs`, so the parser decides after the left side.
stmtTail
  : '~' IDENT '(' exprList? ')' truncation?                         # tildeTail
  | op=('=' | '+=' | '-=' | '*=' | '/=') expr                       # assignTail
  ;

// Stan's truncation T[L, U], T[L, ] or T[, U]. `T` is a name here, not a keyword, so that it stays
// usable as a variable (the AST builder refuses any other name in its place).
truncation
  : trunc=IDENT '[' lo=expr? ',' hi=expr? ']'
  ;

// Expressions, loosest binding first at the bottom. ANTLR gives earlier alternatives higher
// precedence; `<assoc=right>` marks the right-associative operators.
expr
  : primary                                                         # primaryExpr
  | expr '[' indices ']'                                            # indexExpr
  | expr '\''                                                       # transposeExpr
  | <assoc=right> expr op=('^' | '.^') expr                         # powerExpr
  | op=('-' | '!' | '+') expr                                       # unaryExpr
  | expr op=('.*' | './') expr                                      # elementwiseExpr
  | expr op=('*' | '/' | '%') expr                                  # mulExpr
  | expr op=('+' | '-') expr                                        # addExpr
  | expr op=('<' | '<=' | '>' | '>=') expr                          # compareExpr
  | expr op=('==' | '!=') expr                                      # equalityExpr
  | expr op='&&' expr                                               # andExpr
  | expr op='||' expr                                               # orExpr
  | <assoc=right> expr op='?' expr ':' expr                         # condExpr
  ;

// Bound expressions stop before comparisons, so that in `<lower=0, upper=N>` the `>` closes the
// bounds. Wrap a comparison in parentheses to use one in a bound.
boundExpr
  : primary                                                         # boundPrimary
  | boundExpr '[' indices ']'                                       # boundIndex
  | boundExpr '\''                                                  # boundTranspose
  | <assoc=right> boundExpr op=('^' | '.^') boundExpr               # boundPower
  | op=('-' | '+') boundExpr                                        # boundUnary
  | boundExpr op=('.*' | './') boundExpr                            # boundElementwise
  | boundExpr op=('*' | '/' | '%') boundExpr                        # boundMul
  | boundExpr op=('+' | '-') boundExpr                              # boundAdd
  ;

primary
  : INT_LITERAL                                                     # intLiteral
  | REAL_LITERAL                                                    # realLiteral
  | IDENT '(' callArgs? ')'                                          # callExpr
  | IDENT                                                           # nameExpr
  | '(' expr ')'                                                    # parenExpr
  | '[' exprList ']'                                                # rowVectorLiteral
  | '{' exprList '}'                                                # arrayLiteral
  | STRING_LITERAL                                                  # stringLiteral
  ;

exprList
  : expr (',' expr)*
  ;

// f(a, b) or, for densities, f(y | a, b).
callArgs
  : expr (bar='|' exprList | (',' expr)*)
  ;

indices
  : index (',' index)*
  ;

// i, lo:hi, lo:, :hi or :
index
  : lo=expr (colon=':' hi=expr?)?
  | colon=':' hi=expr?
  ;

// Lexer ----------------------------------------------------------------------------------------

INT_LITERAL  : DIGIT+ ;
REAL_LITERAL : DIGIT+ '.' DIGIT* EXPONENT?
             | '.' DIGIT+ EXPONENT?
             | DIGIT+ EXPONENT
             ;
IDENT        : [a-zA-Z] [a-zA-Z0-9_]* ;
// The arguments of print, reject and fatal_error: no escapes, one line.
STRING_LITERAL : '"' ~["\r\n]* '"' ;

fragment DIGIT    : [0-9] ;
fragment EXPONENT : [eE] [+-]? DIGIT+ ;

LINE_COMMENT  : '//' ~[\r\n]* -> skip ;
BLOCK_COMMENT : '/*' .*? '*/' -> skip ;
WS            : [ \t\r\n\f]+ -> skip ;
