package com.example.validator;

import com.example.validator.AdvisoryLockService.LockType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.Instant;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

@Service
public class WeightSettingService {

    private final AdvisoryLockService locks;

    @PersistenceContext
    private EntityManager em;

    public WeightSettingService(AdvisoryLockService locks) {
        this.locks = locks;
    }

    /** Called by the Celery-style beat scheduler bean; only one validator replica commits weights per epoch. */
    @Transactional
    public boolean setWeights(long epoch) {
        if (!locks.tryLock(LockType.WEIGHT_SETTING)) {
            return false;                                  // another replica is setting weights
        }
        Number already = (Number) em.createNativeQuery("SELECT count(*) FROM weights WHERE epoch = :e")
                .setParameter("e", epoch)
                .getSingleResult();
        if (already.longValue() > 0) {
            return false;
        }
        em.createNativeQuery("INSERT INTO weights(epoch, computed_at) VALUES (:e, :t)")
                .setParameter("e", epoch)
                .setParameter("t", Instant.now())
                .executeUpdate();
        return true;
    }
}
