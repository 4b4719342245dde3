CREATE TABLE order_lines (
  order_id    bigint  NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  line_no     integer NOT NULL,
  sku         text    NOT NULL,
  quantity    integer NOT NULL CHECK (quantity > 0),
  price_cents bigint  NOT NULL,
  PRIMARY KEY (order_id, line_no)
);
