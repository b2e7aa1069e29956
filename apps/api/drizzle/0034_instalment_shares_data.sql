-- Custom SQL migration file, put your code below! --
-- The instalments of existing agreements get their principal and interest shares (no anatocism: late
-- interest accrues on the principal share only). The original schedule splits the agreement's principal
-- and interest exactly (largest remainder over the lines' amounts, as scheduleShares does); a restructured
-- schedule, whose true split was not kept, takes the agreement's proportions of its total (truncated).
-- Amounts in cents as numeric: nothing overflows.
with l as (
  select o.id, x.agreement_id, x.schedule, o.principal * 100 as amt,
    a.principal * 100 as ap, a.interest * 100 as ai, a.debt * 100 as ad
  from payment_agreement_orders x
  join payment_orders o on o.id = x.order_id
  join payment_agreements a on a.id = x.agreement_id
  where x.role = 'CUOTA'),
s as (
  select agreement_id, schedule, sum(amt) as t, min(ap) as ap, min(ai) as ai, min(ad) as ad
  from l group by agreement_id, schedule),
st as (
  select agreement_id, schedule, t,
    case when schedule = 0 and t = ad then ap else div(ap * t, ad) end as sp,
    case when schedule = 0 and t = ad then ai else div(ai * t, ad) end as si
  from s where t > 0 and ad > 0),
p1 as (
  select l.id, l.agreement_id, l.schedule, l.amt, st.t, st.sp, st.si,
    div(st.sp * l.amt, st.t) as pbase, mod(st.sp * l.amt, st.t) as prem
  from l join st on st.agreement_id = l.agreement_id and st.schedule = l.schedule),
p2 as (
  select p1.*, pbase + case when row_number() over w <= sp - sum(pbase) over (partition by agreement_id, schedule) then 1 else 0 end as p
  from p1 window w as (partition by agreement_id, schedule order by prem desc, id)),
i1 as (
  select p2.*, amt - p as r, sum(amt - p) over (partition by agreement_id, schedule) as rt from p2),
i2 as (
  select i1.*, case when rt = 0 then 0 else div(si * r, rt) end as ibase, case when rt = 0 then 0 else mod(si * r, rt) end as irem
  from i1),
i3 as (
  select i2.*, ibase + case when row_number() over w <= si - sum(ibase) over (partition by agreement_id, schedule) then 1 else 0 end as i
  from i2 window w as (partition by agreement_id, schedule order by irem desc, id))
update payment_orders o set principal_share = i3.p / 100, interest_share = i3.i / 100
from i3 where o.id = i3.id;
