package com.example.contracts;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;

@ApplicationScoped
public class SubscriptionSyncService {

    @Inject
    EntityManager em;

    /** Called by the UMB and Kafka consumers; two pods may receive events for one subscription at once. */
    @Transactional
    @AdvisoryLocked(prefix = "subscription-update")
    public void upsertActive(@AdvisoryLocked.Key String subscriptionNumber, String sku, long quantity) {
        int updated = em.createNativeQuery(
                "UPDATE subscription SET sku = :sku, quantity = :qty WHERE subscription_number = :sub AND end_date IS NULL")
            .setParameter("sku", sku).setParameter("qty", quantity).setParameter("sub", subscriptionNumber)
            .executeUpdate();
        if (updated == 0) {
            em.createNativeQuery(
                    "INSERT INTO subscription(subscription_number, sku, quantity, start_date) VALUES (:sub, :sku, :qty, now())")
                .setParameter("sub", subscriptionNumber).setParameter("sku", sku).setParameter("qty", quantity)
                .executeUpdate();
        }
    }
}
